import { stableHash, toolIdFor } from "../shared/mod.ts";

/** Messages clients expect `msg_` ids; other formats' ids are kept recognisable behind the prefix. */
export function messageIdFor(id: string, seed: string): string {
  if (id.startsWith("msg_")) return id;
  if (id === "") return `msg_${stableHash(seed)}`;
  return `msg_${toolIdFor(id)}`;
}
