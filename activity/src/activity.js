// The Discord Activity: the live table inside Discord.
//
// Discord shows this page in an Activity's frame. The Embedded App SDK asks Discord to
// authorize the application ("identify" only), which answers with a one-time code; the
// bot's server exchanges it for the person's identity and answers with his seat's token
// for the table open in the Activity's channel (or its thread), and the live table
// (table.js, BonkenTable.mount) is drawn with it. Outside Discord the page says so, or,
// with ?mock=1&guild_id=..&channel_id=.., runs with the SDK's own DiscordSDKMock (its code
// is "mock_code", which Discord refuses: it signs in nobody but in the tests).
//
// Every address is under /.proxy, as Discord's sandbox wants; no inline script. Built
// into bot/web/static/activity.js by activity/build.mjs (README: The Discord Activity).
import { DiscordSDK, DiscordSDKMock } from "@discord/embedded-app-sdk";

function discordFor(root, query) {
  const clientId = root.dataset.clientId;
  if (query.has("frame_id")) return new DiscordSDK(clientId);
  if (query.get("mock") === "1") {
    return new DiscordSDKMock(clientId, query.get("guild_id"), query.get("channel_id"), null);
  }
  return null;
}

async function signIn(discord, root) {
  await discord.ready();
  const { code } = await discord.commands.authorize({
    client_id: root.dataset.clientId,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  const response = await fetch(root.dataset.session, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code, guild_id: discord.guildId, channel_id: discord.channelId }),
  });
  let answer = {};
  try {
    answer = await response.json();
  } catch (error) {
    answer = {};
  }
  return { ok: response.ok, answer };
}

async function start(root) {
  const status = document.querySelector("[data-activity-status]");
  const say = (words) => {
    status.textContent = words;
    status.hidden = false;
  };
  const discord = discordFor(root, new URLSearchParams(location.search));
  if (discord === null) {
    say(root.dataset.outside);
    return;
  }
  let signedIn;
  try {
    signedIn = await signIn(discord, root);
  } catch (error) {
    say(root.dataset.declined);
    return;
  }
  const { ok, answer } = signedIn;
  const token = ok ? answer.token : answer.watch;
  if (ok) status.hidden = true;
  else say(answer.error || root.dataset.failed);
  if (typeof token === "string") {
    window.BonkenTable.mount(root, {
      token,
      socketUrl: root.dataset.socket,
      language: root.dataset.language,
    });
  }
}

document.addEventListener("DOMContentLoaded", () => {
  const root = document.querySelector("[data-activity]");
  if (root) start(root);
});
