import { publicHost } from "../urls/public-host.ts";

export const MAX_WEBHOOK_URL_LENGTH = 2000;

/**
 * Why a URL cannot receive webhooks, or null: http(s) only, no credentials in it (they would sit in the
 * dashboard and every log line), and a public host by the rule share counts and imports follow (no
 * localhost, private, loopback, link-local or reserved address literal) unless `allowPrivateHosts`. A public
 * name resolving to a private address is refused where deliveries connect.
 */
export function webhookUrlRefusal(input: string, allowPrivateHosts: boolean): string | null {
  if (input.length > MAX_WEBHOOK_URL_LENGTH) return `the URL is over ${MAX_WEBHOOK_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return "it is not a complete URL (send it with https://)";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "only http:// and https:// URLs can receive webhooks";
  if (url.username !== "" || url.password !== "") return "the URL may not carry a user name or password: authenticate requests by their signature";
  if (allowPrivateHosts) return null;
  const verdict = publicHost(url.hostname.replace(/\.$/, ""));
  return verdict.ok ? null : verdict.reason;
}
