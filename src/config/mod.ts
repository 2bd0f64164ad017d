/** Configuration: YAML → ${VAR} → zod → one readonly Config, plus home paths and the default file. */
export type {
  AzureSettings,
  CapabilityOverride,
  ComboConfig,
  Config,
  InventoryConfig,
  OAuthOverrides,
  PriceConfig,
  ProviderConfig,
  ProviderQuota,
  SaverLevel,
  SsoConfig,
  StaticKeyConfig,
  TokenSaversConfig,
  UpstreamLimitsConfig,
} from "./config.ts";
export { API_TYPES, type ApiType } from "./api_types.ts";
export {
  awsRegion,
  azureApiVersion,
  azureDeploymentName,
  cloudProject,
  credentialText,
  OAUTH_OVERRIDE_FIELDS,
  USERINFO_RULE,
  withoutUserinfo,
} from "./schema.ts";
export { ConfigError } from "./errors.ts";
export { databaseLabel, databaseLocation } from "./config.ts";
export { parseConfig } from "./load.ts";
export { fileExists, loadConfig, writeDefaultConfig } from "./files.ts";
export { type HomePaths, resolveHomePaths } from "./paths.ts";
export { DEFAULT_CONFIG_YAML } from "./default_config.ts";
export { type ConfigDrift, configDrift, type ConfigSide, describeDrift } from "./drift.ts";
