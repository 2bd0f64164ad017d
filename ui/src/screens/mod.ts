/** Registers every screen element. */
import "./gw_overview_screen.ts";
import "./gw_usage_screen.ts";
import "./gw_analytics_screen.ts";
import "./gw_leaderboard_screen.ts";
import "./gw_request_logs_screen.ts";
import "./gw_inventory_screen.ts";
import "./gw_providers_screen.ts";
import "./gw_combos_screen.ts";
import "./gw_routing_screen.ts";
import "./gw_savers_screen.ts";
import "./gw_budgets_screen.ts";
import "./gw_keys_screen.ts";
import "./gw_tools_screen.ts";
import "./gw_pricing_screen.ts";
import "./gw_settings_screen.ts";
