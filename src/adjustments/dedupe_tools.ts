import type { NeutralRequest } from "../model/mod.ts";
import type { AdjustTarget } from "./target.ts";

/**
 * For Claude Code clients (which can declare the same tool twice through plugins and MCP servers):
 * drops later tool definitions whose name was already declared. The first definition wins, so the
 * list never empties.
 */
export function dedupeTools(request: NeutralRequest, target: AdjustTarget): NeutralRequest {
  if (target.clientKind !== "claude_code" || request.tools.length < 2) return request;
  const seen = new Set<string>();
  const tools = request.tools.filter((tool) => {
    if (seen.has(tool.name)) return false;
    seen.add(tool.name);
    return true;
  });
  return tools.length === request.tools.length ? request : { ...request, tools };
}
