/** Places outside the app that home links to; they open in the browser (or through the host). */
/** IRS Free File in the reader's language (the IRS serves its Spanish pages under /es/). */
export const freeTaxFilingUrl = {
  en: 'https://www.irs.gov/filing/irs-free-file-do-your-taxes-for-free',
  es: 'https://www.irs.gov/es/filing/irs-free-file-do-your-taxes-for-free',
} as const;
