/**
 * A stand-in for the card API at the fetch level: each request waits until the test answers it,
 * so a test decides, step by step, what the server says (as a generated path prescribes).
 */
import { createFetch } from 'ofetch';

type Waiting = { path: string; init: RequestInit | undefined; resolve: (response: Response) => void; reject: (error: Error) => void };

export function createFakeCardApi() {
  const waiting: Waiting[] = [];
  /** Each request: its path, its query string (`?…`, or ''), and what was sent. */
  const requests: { path: string; search: string; init: RequestInit | undefined }[] = [];

  const fetch = (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const { pathname: path, search } = new URL(url, 'http://app.test');
    requests.push({ path, search, init });
    return new Promise<Response>((resolve, reject) => waiting.push({ path, init, resolve, reject }));
  };

  function take(path: string): Waiting {
    const index = waiting.findIndex((request) => request.path === path);
    if (index < 0) throw new Error(`No request to ${path} is waiting (waiting: ${waiting.map((w) => w.path).join(', ') || 'none'})`);
    return waiting.splice(index, 1)[0]!;
  }

  return {
    fetcher: createFetch({ fetch: fetch as typeof globalThis.fetch }),
    requests,
    isWaiting: (path: string) => waiting.some((request) => request.path === path),
    /** Answers the oldest waiting request to `path` with a JSON body. */
    answer(path: string, body: unknown, status = 200) {
      take(path).resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));
    },
    /** Answers the oldest waiting request to `path` with a file's bytes (a statement's PDF). */
    answerFile(path: string, bytes: Uint8Array, contentType = 'application/pdf') {
      take(path).resolve(new Response(new Uint8Array(bytes), { status: 200, headers: { 'content-type': contentType } }));
    },
    /** Answers with a proxy error page: no statusCode, like a network or gateway failure. */
    fail(path: string) {
      take(path).resolve(new Response('<html>Bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } }));
    },
    /** No answer at all: the request fails on the way (a dropped connection), as fetch does. */
    drop(path: string) {
      take(path).reject(new TypeError('Failed to fetch'));
    },
  };
}

export type FakeCardApi = ReturnType<typeof createFakeCardApi>;
