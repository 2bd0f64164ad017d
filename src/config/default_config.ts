/**
 * The commented YAML written by `gateway config-init` and by the first `gateway serve`. It is a seed:
 * providers, combos, token_savers and pricing are imported into the database on first start only.
 */
export const DEFAULT_CONFIG_YAML = `# gateway configuration.
#
# This file seeds the database on first start: providers, combos, token_savers and pricing are
# imported into empty tables only. Afterwards the database (and the dashboard) is authoritative;
# editing this file and restarting does not re-apply those sections. Dashboard > Settings > Reset
# re-seeds from this file. \${VAR} references are resolved from the environment at startup; an
# unset variable is an error.

server:
  host: 127.0.0.1        # loopback by default; use 0.0.0.0 only behind a firewall or proxy
  port: 20128
  require_api_key: false # true: every API request needs a key (the dashboard always does)

# Static keys have full access and are never stored in the database. Create scoped keys with
# \`gateway keys create --name <name>\` instead.
api_keys: []
#  - key: \${GATEWAY_STATIC_KEY}
#    client_key_label: ci

# Upstream accounts. Clients ask for "<prefix>/<model>"; several accounts may share a prefix and are
# tried in order (fallback with cooldowns).
#   api_type: chat_compat (base_url includes the version path, e.g. https://api.openai.com/v1),
#             messages_native (host root, e.g. https://api.anthropic.com),
#             generate_native (host root, e.g. https://generativelanguage.googleapis.com)
providers: []
#  - id: openai-main
#    prefix: openai
#    api_type: chat_compat
#    base_url: https://api.openai.com/v1
#    api_key: \${OPENAI_API_KEY}
#    models: [gpt-4.1, gpt-4o-mini]
#  - id: anthropic-main
#    prefix: anthropic
#    api_type: messages_native
#    base_url: https://api.anthropic.com
#    api_key: \${ANTHROPIC_API_KEY}
#    models: [claude-sonnet-4-20250514]
#  - id: gemini-main
#    prefix: gemini
#    api_type: generate_native
#    base_url: https://generativelanguage.googleapis.com
#    api_key: \${GEMINI_API_KEY}
#    models: [gemini-2.5-pro]

# Named ordered model lists; clients send the combo name as the model.
combos: []
#  - name: smart
#    models: [anthropic/claude-sonnet-4-20250514, openai/gpt-4.1]

token_savers:
  rtk:
    enabled: true        # compresses long tool results (git, grep, build logs…)
  caveman:
    enabled: false       # asks for terse answers
    level: full          # lite | full | ultra
  ponytail:
    enabled: false       # asks for minimal code
    level: full          # lite | full | ultra
  headroom:
    enabled: false       # external compression service
    url: http://127.0.0.1:8787

# Price overrides in USD per million tokens; they win over the builtin prices.
pricing: {}
#  my-finetune:
#    input_per_mtok: 1.0
#    output_per_mtok: 2.0
#    cache_creation_per_mtok: 0
#    cache_read_per_mtok: 0
`;
