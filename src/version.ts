/** The gateway's version: `--version`, `/api/version`, the dashboard, and the User-Agent of upstream calls. */
export const GATEWAY_VERSION = "3.0.0";
