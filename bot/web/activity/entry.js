// The Discord Activity's door: the Embedded App SDK signs the player in (authorize gives a
// code, our server exchanges it at Discord's OAuth2 endpoint), and tells which channel the
// Activity runs in, which selects that channel's table. Bundled by `npm run build`.
import { DiscordSDK } from "@discord/embedded-app-sdk";

window.EscapeActivity = {
  async signIn(clientId, api) {
    const sdk = new DiscordSDK(clientId);
    await sdk.ready();
    const { code } = await sdk.commands.authorize({
      client_id: clientId, response_type: "code", state: "", prompt: "none", scope: ["identify"],
    });
    const signed = await api("/api/auth/discord", { method: "POST", json: { code } });
    await sdk.commands.authenticate({ access_token: signed.access_token });
    return { token: signed.token, channelId: sdk.channelId };
  },
};
