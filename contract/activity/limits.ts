/** How many transactions a page holds at most (and by default): one phone screen and a little more. */
export const transactionsPageLimit = 25;
