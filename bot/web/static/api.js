// The board's API (docs/web-board.md): every call carries the seat's token in the Authorization
// header; the token never goes into a URL, so no access log ever holds it. Each asks in the
// language the page speaks (`language`, Accept-Language): a refusal with no link's language to go
// by (a bad link's 403) is said in the page's words' language, not in the browser's.

export class ApiError extends Error {
  constructor(status, body) {
    super((body && (body.error || body.reason)) || `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
  }
}

/** A request that got no answer at all (the network is down, the server unreachable). */
export class NetworkError extends Error {}

/** How long the live stream may stay silent before it is given up: two of the server's 15 s pings missed. */
const SILENT_MS = 40000;
/** Silent for longer than a ping when the page is shown again: the stream died while it was hidden. */
const AWAKE_MS = 20000;

export function createApi(token, base = "") {
  const headers = { Authorization: `Bearer ${token}` };
  let language = null;
  const asked = () => (language ? { ...headers, "Accept-Language": language } : { ...headers });

  async function call(method, path, body) {
    const options = { method, headers: asked(), cache: "no-store" };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(base + path, options);
    } catch (error) {
      throw new NetworkError(error.message);
    }
    let answer = null;
    try {
      answer = await response.json();
    } catch {
      answer = null;
    }
    if (!response.ok) throw new ApiError(response.status, answer);
    return answer;
  }

  return {
    /** Ask in `code` ("en", "pt-BR") from now on. */
    setLanguage(code) {
      language = code;
    },
    view: () => call("GET", "/api/view"),
    act: (body) => call("POST", "/api/act", body),
    check: (body) => call("POST", "/api/check", body),
    plan: () => call("GET", "/api/plan"),
    planDraft: (body) => call("POST", "/api/plan/draft", body),
    planSave: (body) => call("POST", "/api/plan", body),
    planCancel: () => call("POST", "/api/plan/cancel", {}),

    /**
     * Follow `/api/events` (server-sent events read from a fetch stream, since EventSource cannot
     * send headers): `onView(view)` for each `event: view`, `onPlan()` for each `event: plan` (the
     * seat's plan was kept or dropped, here or elsewhere: the news only). Reconnects after a drop;
     * `onState` hears "open" / "lost" / "forbidden" (with the server's reason). Returns a function that stops it.
     *
     * A phone's connection can die without a word (asleep, or between networks): the stream then
     * just stays silent and the page would show an old board for good. The server pings every
     * 15 s, so a stream silent for SILENT_MS is given up and opened again; and when the page is
     * shown again or the network comes back, a stream not open, or silent past a ping, is opened
     * again at once rather than after the pause between tries.
     */
    follow(onView, onState, onPlan = () => {}) {
      let stopped = false;
      let controller = null;
      let open = false;
      let heardAt = Date.now();
      let hurry = false;
      let wake = null;
      let delay = 500;
      async function run() {
        while (!stopped) {
          const mine = new AbortController();
          controller = mine;
          heardAt = Date.now();
          const watchdog = setInterval(() => {
            if (Date.now() - heardAt > SILENT_MS) mine.abort();
          }, SILENT_MS / 4);
          try {
            const response = await fetch(base + "/api/events", {
              headers: asked(), cache: "no-store", signal: mine.signal,
            });
            if (response.status === 403) {
              let reason = null;
              try {
                reason = (await response.json()).error || null;
              } catch {
                reason = null;
              }
              onState("forbidden", reason);
              return;
            }
            if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
            open = true;
            heardAt = Date.now();
            onState("open");
            delay = 500;
            await readEvents(response.body, (event, data) => {
              if (event === "view") onView(JSON.parse(data));
              else if (event === "plan") onPlan();
            }, () => { heardAt = Date.now(); });
          } catch (error) {
            if (stopped) return;
          } finally {
            clearInterval(watchdog);
            open = false;
          }
          if (stopped) return;
          onState("lost");
          if (!hurry) {
            await new Promise((resolve) => {
              wake = resolve;
              setTimeout(resolve, delay);
            });
            delay = Math.min(delay * 2, 8000);
          }
          hurry = false;
          wake = null;
        }
      }
      const revive = () => {
        if (stopped || document.visibilityState !== "visible") return;
        if (open && Date.now() - heardAt <= AWAKE_MS) return;
        hurry = true;
        delay = 500;
        if (wake) wake();
        else if (controller) controller.abort();
      };
      document.addEventListener("visibilitychange", revive);
      window.addEventListener("online", revive);
      run();
      return () => {
        stopped = true;
        document.removeEventListener("visibilitychange", revive);
        window.removeEventListener("online", revive);
        if (controller) controller.abort();
      };
    },
  };
}

/** Parse a `text/event-stream` body, calling `onEvent(name, data)` for each complete event and
 * `onHeard()` for each chunk that comes (a ping too: the stream is alive). */
async function readEvents(body, onEvent, onHeard = () => {}) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    onHeard();
    buffer += value.replace(/\r\n?/g, "\n");
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = "message";
      const data = [];
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const text = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "event") event = text;
        else if (field === "data") data.push(text);
      }
      if (data.length) onEvent(event, data.join("\n"));
    }
  }
}
