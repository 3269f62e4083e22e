/** An answer as it was at `fetchedAt` (ISO 8601): what home and activity show, with that time, when no answer comes. */
export type LastKnown<T> = { data: T; fetchedAt: string };
