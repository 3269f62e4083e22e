/**
 * The 50 states by code (contract/shared/address.ts), named as the Postal Service names them, and in
 * Spanish as USA.gov en español names them. Not in the catalogue: only the address step needs them.
 */
import { stateCodes, type StateCode } from '../../../contract/shared/address.ts';
import type { Locale } from '../../../contract/shared/locale.ts';

const stateNames: Record<StateCode, string> = {
  AL: 'Alabama',
  AK: 'Alaska',
  AZ: 'Arizona',
  AR: 'Arkansas',
  CA: 'California',
  CO: 'Colorado',
  CT: 'Connecticut',
  DE: 'Delaware',
  FL: 'Florida',
  GA: 'Georgia',
  HI: 'Hawaii',
  ID: 'Idaho',
  IL: 'Illinois',
  IN: 'Indiana',
  IA: 'Iowa',
  KS: 'Kansas',
  KY: 'Kentucky',
  LA: 'Louisiana',
  ME: 'Maine',
  MD: 'Maryland',
  MA: 'Massachusetts',
  MI: 'Michigan',
  MN: 'Minnesota',
  MS: 'Mississippi',
  MO: 'Missouri',
  MT: 'Montana',
  NE: 'Nebraska',
  NV: 'Nevada',
  NH: 'New Hampshire',
  NJ: 'New Jersey',
  NM: 'New Mexico',
  NY: 'New York',
  NC: 'North Carolina',
  ND: 'North Dakota',
  OH: 'Ohio',
  OK: 'Oklahoma',
  OR: 'Oregon',
  PA: 'Pennsylvania',
  RI: 'Rhode Island',
  SC: 'South Carolina',
  SD: 'South Dakota',
  TN: 'Tennessee',
  TX: 'Texas',
  UT: 'Utah',
  VT: 'Vermont',
  VA: 'Virginia',
  WA: 'Washington',
  WV: 'West Virginia',
  WI: 'Wisconsin',
  WY: 'Wyoming',
};

/** The Spanish names that are not the English ones. */
const spanishStateNames: Partial<Record<StateCode, string>> = {
  HI: 'Hawái',
  LA: 'Luisiana',
  MI: 'Míchigan',
  MS: 'Misisipi',
  MO: 'Misuri',
  NH: 'Nuevo Hampshire',
  NJ: 'Nueva Jersey',
  NM: 'Nuevo México',
  NY: 'Nueva York',
  NC: 'Carolina del Norte',
  ND: 'Dakota del Norte',
  OR: 'Oregón',
  PA: 'Pensilvania',
  SC: 'Carolina del Sur',
  SD: 'Dakota del Sur',
  WV: 'Virginia Occidental',
};

/** The states as the address step lists them: code and name, in the order of their names in the reader's language. */
export function statesFor(locale: Locale): { code: StateCode; name: string }[] {
  const named = stateCodes.map((code) => ({ code, name: (locale === 'es' && spanishStateNames[code]) || stateNames[code] }));
  return named.sort((a, b) => a.name.localeCompare(b.name, locale));
}
