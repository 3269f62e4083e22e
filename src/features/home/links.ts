/** Places outside the app that home links to; they open in the browser (or through the host). */
export const freeTaxFilingUrl = 'https://www.irs.gov/filing/irs-free-file-do-your-taxes-for-free';
