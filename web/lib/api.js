// Fetching the JSON API, with errors worded for the page rather than the console.
import { useEffect, useState, useCallback } from 'preact/hooks';
import { sessionToken } from './connection.js';

/** An API failure: `message` is ready to show; `status` is 0 when the server was unreachable. */
export class ApiError extends Error {
  constructor(message, status = 0, code = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

/**
 * GET `path` and parse its JSON; throws ApiError with a readable message. With `auth`,
 * the signed-in session goes along as `Authorization: Bearer` (a seat's private replay).
 */
export async function getJSON(path, { signal, auth = false } = {}) {
  const headers = { accept: 'application/json' };
  const token = auth ? sessionToken() : null;
  if (token) headers.authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, { headers, signal });
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    throw new ApiError(`Could not reach the server for ${path} (${e.message}).`);
  }
  const text = await response.text();
  let body = null;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      // A proxy's HTML error page, say: say so rather than "unexpected token <".
      if (response.ok) throw new ApiError(`${path} did not answer with JSON.`, response.status);
    }
  }
  if (!response.ok) {
    // The server's errors are {"error": code, "message": text}.
    const detail = body && body.message ? body.message : response.statusText || 'request failed';
    throw new ApiError(`${path}: ${response.status} ${detail}`, response.status, body && body.error);
  }
  return body;
}

/**
 * Load `path` (skipped while null) into {data, error, loading, reload}. With
 * `every` (ms), refetch periodically, keeping the last data shown meanwhile.
 */
export function useApi(path, { every = 0, auth = false } = {}) {
  const [state, setState] = useState({ data: null, error: null, loading: !!path });
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((t) => t + 1), []);

  useEffect(() => {
    if (!path) return undefined;
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    getJSON(path, { signal: controller.signal, auth }).then(
      (data) => setState({ data, error: null, loading: false }),
      (error) => {
        if (error.name !== 'AbortError') setState((s) => ({ data: s.data, error, loading: false }));
      },
    );
    return () => controller.abort();
  }, [path, tick, auth]);

  useEffect(() => {
    if (!path || !every) return undefined;
    const timer = setInterval(() => {
      // No point polling a tab nobody looks at.
      if (!document.hidden) setTick((t) => t + 1);
    }, every);
    return () => clearInterval(timer);
  }, [path, every]);

  return { ...state, reload };
}
