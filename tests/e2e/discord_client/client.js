// A stand-in Discord client for the Activity's browser test: it frames the Activity as
// Discord does (frame_id, instance_id, platform, guild_id, channel_id in its query) and
// answers the Embedded App SDK's RPC over postMessage: the handshake with READY, AUTHORIZE
// with a code the stand-in Discord's OAuth2 endpoint knows, AUTHENTICATE with the user.
"use strict";
const params = new URLSearchParams(location.search);
const frame = document.getElementById("app");
const user = JSON.parse(params.get("user"));
window.addEventListener("message", (event) => {
  if (event.source !== frame.contentWindow || !Array.isArray(event.data)) return;
  const [opcode, data] = event.data;
  const send = (payload) => frame.contentWindow.postMessage([1, payload], "*");
  if (opcode === 0) {
    send({ cmd: "DISPATCH", evt: "READY", nonce: null,
      data: { v: 1, config: { cdn_host: "cdn.discordapp.com", api_endpoint: "//discord.com/api", environment: "production" } } });
  } else if (opcode === 1 && data.cmd === "AUTHORIZE") {
    send({ cmd: "AUTHORIZE", evt: null, nonce: data.nonce, data: { code: params.get("code") } });
  } else if (opcode === 1 && data.cmd === "AUTHENTICATE") {
    send({ cmd: "AUTHENTICATE", evt: null, nonce: data.nonce, data: {
      access_token: data.args.access_token, user: { ...user, public_flags: 0 }, scopes: ["identify"],
      expires: "2099-01-01T00:00:00Z", application: { id: params.get("client_id"), name: "Escape", description: "" } } });
  } else if (opcode === 1) {
    send({ cmd: data.cmd, evt: null, nonce: data.nonce, data: null });
  }
});
frame.src = "/activity?" + new URLSearchParams({ frame_id: "frame-1", instance_id: "instance-1",
  platform: params.get("platform") || "desktop", guild_id: params.get("guild_id"), channel_id: params.get("channel_id") });
