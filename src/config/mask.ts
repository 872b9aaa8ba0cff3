// What `svc config` shows of a setting: the value as text, with every secret in it hidden.
const HIDDEN = '***';
/** Names of values (variables and JSON members such as SVC_CARRIERS' apiKey and clientId: some gateways take the client id as their key) that hold a secret. */
const SECRET_NAME = /(key|token|secret|password|clientid)$/i;

/** Hides a URL's password, in the user-info part or as a libpq `password=` parameter. */
function hideUrlPassword(text: string): string {
  return text.replace(/^([a-z][a-z\d+.-]*:\/\/[^:/?#@]*:)[^@/?#]*@/i, `$1${HIDDEN}@`).replace(/([?&]password=)[^&#]*/gi, `$1${HIDDEN}`);
}

function hide(name: string, value: unknown): unknown {
  if (value === undefined || value === null) return value;
  if (SECRET_NAME.test(name)) return HIDDEN;
  if (typeof value === 'string') return hideUrlPassword(value);
  if (Array.isArray(value)) return value.map((v) => hide('', v));
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, hide(k, v)]));
  return value;
}

/** A setting as one line of text, secrets replaced by ***; undefined (unset, no default) stays undefined. */
export function maskedSetting(name: string, value: unknown): string | undefined {
  const shown = hide(name, value);
  if (shown === undefined || shown === null) return undefined;
  if (Array.isArray(shown) && shown.every((v) => typeof v !== 'object')) return shown.length > 0 ? shown.join(',') : undefined;
  return typeof shown === 'object' ? JSON.stringify(shown) : String(shown);
}
