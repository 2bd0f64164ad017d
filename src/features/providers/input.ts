/** Provider input checks, shared by the dashboard routes and `gateway providers`. */
import { z } from "zod";
import {
  API_TYPES,
  awsRegion,
  azureApiVersion,
  azureDeploymentName,
  cloudProject,
  credentialText,
  USERINFO_RULE,
  withoutUserinfo,
} from "../../config/mod.ts";
import { MODEL_KINDS } from "../../model/model_kind.ts";
import { stringList } from "../input.ts";

const id = z.string({ error: "must be a string" }).trim().min(1, "is required").max(100, "is too long")
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/, "letters, digits, '_', '.', ':' or '-' only");
const prefix = z.string({ error: "must be a string" }).trim().min(1, "is required").max(100, "is too long")
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, "letters, digits, '_', '.' or '-' only (no '/')");
const apiType = z.enum(API_TYPES, { error: `must be one of ${API_TYPES.join(", ")}` });
const baseUrl = z.string({ error: "must be a string" }).trim().refine((v) => {
  try {
    const url = new URL(v);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}, "must be an http(s) URL").refine(withoutUserinfo, USERINFO_RULE).transform((v) => v.replace(/\/+$/, ""));
const apiKey = credentialText.max(20_000, "is too long");
const models = stringList.pipe(z.array(z.string().regex(/^\S+$/, "model names must not contain spaces")));
const enabled = z.boolean({ error: "must be true or false" });
/** Declared model kinds: `{"<upstream model>": "rerank", …}`; `{}` clears them. */
const kinds = z.record(
  z.string().trim().min(1, "model names must not be empty").max(200, "model names must be short"),
  z.enum(MODEL_KINDS, { error: `must be one of ${MODEL_KINDS.join(", ")}` }),
  { error: "must be an object of model name to kind" },
);
/** A call setting the form may leave empty (empty clears it). */
const hint = (check: z.ZodString, message: string) =>
  z.string({ error: "must be a string" }).trim().refine(
    (v) => v === "" || check.safeParse(v).success,
    message,
  );
const region = hint(awsRegion, "must be an AWS region such as eu-central-1");
const project = hint(cloudProject, "must be a Google Cloud project id such as my-project-123");

const azureVersion = z.string({ error: "must be a string" }).trim().pipe(azureApiVersion);
/** Lines (or commas) of `model=deployment`, as the form's text area gives them. */
const deploymentLines = z.string().transform((text, ctx) => {
  const map: Record<string, string> = {};
  for (const entry of text.split(/[\n,]/).map((l) => l.trim()).filter((l) => l !== "")) {
    const [model, deployment, ...rest] = entry.split("=").map((part) => part.trim());
    if (!model || !deployment || rest.length > 0) {
      ctx.addIssue({ code: "custom", message: `"${entry}" is not model=deployment` });
      return z.NEVER;
    }
    map[model] = deployment;
  }
  return map;
});
/** Azure model → deployment names: an object, or `model=deployment` lines. */
const deployments = z.union([z.record(z.string(), z.string()), deploymentLines], {
  error: "must be an object or model=deployment lines",
}).pipe(
  z.record(
    z.string().trim().min(1).regex(/^\S+$/, "model names must not contain spaces"),
    azureDeploymentName,
  ),
);

/** A new provider as the dashboard form and `gateway providers add` give it. */
export const createSchema = z.object({
  id,
  prefix,
  api_type: apiType,
  base_url: baseUrl,
  api_key: apiKey.default(""),
  models: models.default([]),
  enabled: enabled.default(true),
  kinds: kinds.optional(),
  region: region.optional(),
  project: project.optional(),
  azure_api_version: azureVersion.optional(),
  azure_deployments: deployments.optional(),
});
/** Changes to a provider (absent fields keep their value; a blank api_key keeps the stored one). */
export const updateSchema = z.object({
  prefix: prefix.optional(),
  api_type: apiType.optional(),
  base_url: baseUrl.optional(),
  api_key: apiKey.optional(),
  models: models.optional(),
  enabled: enabled.optional(),
  kinds: kinds.optional(),
  region: region.optional(),
  project: project.optional(),
  azure_api_version: azureVersion.optional(),
  azure_deployments: deployments.optional(),
});
/** What Fetch Models is asked with: a stored provider, or a form not saved yet. */
export const fetchSchema = z.object({
  provider_id: z.string({ error: "must be a string" }).optional(),
  api_type: apiType.optional(),
  base_url: baseUrl.optional(),
  api_key: apiKey.optional(),
  azure_api_version: azureVersion.optional(),
  azure_deployments: deployments.optional(),
});
/** A model name to ask for. */
export const model = z.string({ error: "must be a string" }).trim().min(1, "must not be empty").max(
  200,
  "is too long",
);
/** Test Connection on a form not saved yet: Fetch Models' fields and the model to ask (none: the list). */
export const draftTestSchema = fetchSchema.extend({ model: model.optional() });
