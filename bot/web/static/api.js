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
     */
    follow(onView, onState, onPlan = () => {}) {
      let stopped = false;
      let controller = null;
      async function run() {
        let delay = 500;
        while (!stopped) {
          controller = new AbortController();
          try {
            const response = await fetch(base + "/api/events", {
              headers: asked(), cache: "no-store", signal: controller.signal,
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
            onState("open");
            delay = 500;
            await readEvents(response.body, (event, data) => {
              if (event === "view") onView(JSON.parse(data));
              else if (event === "plan") onPlan();
            });
          } catch (error) {
            if (stopped) return;
          }
          if (stopped) return;
          onState("lost");
          await new Promise((resolve) => setTimeout(resolve, delay));
          delay = Math.min(delay * 2, 8000);
        }
      }
      run();
      return () => {
        stopped = true;
        if (controller) controller.abort();
      };
    },
  };
}

/** Parse a `text/event-stream` body, calling `onEvent(name, data)` for each complete event. */
async function readEvents(body, onEvent) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
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
