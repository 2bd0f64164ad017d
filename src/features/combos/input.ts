/** Combo input checks, shared by the dashboard routes and `gateway combos`. */
import { z } from "zod";
import { stringList } from "../input.ts";

const name = z.string({ error: "must be a string" }).trim().min(1, "is required").max(200, "is too long")
  .regex(/^\S+$/, "must not contain spaces");
const models = stringList.pipe(
  z.array(z.string().regex(/^[^/\s]+\/\S+$/, "each entry must be <prefix>/<model>")).min(
    1,
    "needs at least one <prefix>/<model>",
  ),
);

/** A new combo. */
export const comboCreate = z.object({ name, models });

/** Changes to a combo (absent fields keep their value). */
export const comboUpdate = z.object({ name: name.optional(), models: models.optional() });
