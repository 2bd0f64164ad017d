import type { ApiType } from "../../config/mod.ts";
import { googleRefresh, kiroRefresh } from "./refresh_cloud.ts";
import { oauth2Refresh, type RefreshStrategy } from "./refresh_strategies.ts";

/** The refresh strategy of each subscription kind; kinds without one never refresh. */
export const REFRESH_STRATEGIES: Readonly<Partial<Record<ApiType, RefreshStrategy>>> = {
  responses_oauth: oauth2Refresh,
  messages_oauth: oauth2Refresh,
  device_oauth_assistant: oauth2Refresh,
  cli_oauth: googleRefresh,
  cli_oauth_alt: googleRefresh,
  cloud_assistant_oauth: kiroRefresh,
};
