// The board inside Discord, as an Activity: the Embedded App SDK (vendored, one built file)
// authorises the user; the bot's server exchanges the OAuth2 code for the Discord user, maps
// them to their seat in this channel's game and answers with the same token a Board link holds.
// With no `frame_id` query parameter (outside Discord, in tests) the SDK's mock stands in.

import { Board } from "./board.js";
import { put } from "./dom.js";
import { browserLocale, texts } from "./i18n.js";
import { DiscordSDK, DiscordSDKMock } from "./vendor/discord-embedded-app-sdk.js";

const t = texts(browserLocale());

function show(text, kind = "info") {
  const box = document.getElementById("message");
  box.className = `message ${kind}`;
  put(box, text);
}

/** A request the network dropped (no answer at all): said as such, not in the browser's words. */
class Unreachable extends Error {}

async function reach(path, options) {
  try {
    return await fetch(path, options);
  } catch (error) {
    throw new Unreachable(error.message);
  }
}

async function postJson(path, body) {
  const response = await reach(path, {
    method: "POST", cache: "no-store", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  let answer = null;
  try {
    answer = await response.json();
  } catch {
    answer = null;
  }
  return { status: response.status, answer: answer || {} };
}

// A refusal of the sign-in (4xx: the code, the channel, the Activity not set up) is the server's
// sentence as it is, in the browser's language (not the words for a bad board link, nor "something
// went wrong": nothing did); only a fault is said to be one, and an answer with no sentence of the
// server's (a proxy's page in between) in the board's words for it: a status code is never shown.
function refused(status, answer) {
  document.getElementById("message").setAttribute("role", "alert");
  const said = status >= 400 && status < 500 && answer.error;
  if (said) show(answer.error, "error");
  else if (answer.error) show(t("error", { reason: answer.error }), "error");
  else show(t("serverTrouble"), "error");
}

async function signIn() {
  show(t("activityAuth"));
  const params = new URLSearchParams(location.search);
  const configured = await reach("/api/activity/config", { cache: "no-store" });
  const config = await configured.json().catch(() => ({}));
  if (!configured.ok || !config.client_id) return refused(configured.status, config); // not set up: no one to authorise with
  const clientId = String(config.client_id);
  const sdk = params.has("frame_id")
    ? new DiscordSDK(clientId)
    : new DiscordSDKMock(clientId, params.get("guild_id"), params.get("channel_id") || "0", null);
  window.discordSdk = sdk;
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: clientId, response_type: "code", state: "", prompt: "none", scope: ["identify"],
  });
  const { status, answer } = await postJson("/api/activity/token", {
    code, channel_id: String(sdk.channelId || ""), instance_id: sdk.instanceId ? String(sdk.instanceId) : null,
  });
  if (status !== 200 || !answer.token) return refused(status, answer);
  if (answer.access_token) await sdk.commands.authenticate({ access_token: answer.access_token });
  window.board = new Board(answer.token);
  await window.board.start();
}

signIn().catch((error) => {
  document.getElementById("message").setAttribute("role", "alert");
  show(error instanceof Unreachable ? t("unreachable") : t("error", { reason: error.message }), "error");
});
