/**
 * The partner bank that issues the card account (spec §9: "a named partner bank with an Ohio street
 * address is shown"; the routing number is a fixed 9-digit value, the account number is the prn).
 * The one place these are kept: statements print them, and the screens that show the routing number
 * will read it from here. The sandbox's bank is fictional: the name, the address and the routing
 * number (which passes the ABA check digit) are made up; production sets the real ones here.
 */
export const partnerBank = {
  name: 'Lakeshore National Bank',
  street: '200 Public Square',
  city: 'Cleveland',
  state: 'OH',
  zip: '44114',
  routingNumber: '041299993',
} as const;

/** "200 Public Square, Cleveland, OH 44114" */
export const partnerBankAddress = `${partnerBank.street}, ${partnerBank.city}, ${partnerBank.state} ${partnerBank.zip}`;
