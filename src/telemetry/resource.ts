/**
 * The resource every exported span is reported under: who produced it. `service.name` comes from the
 * configuration; `service.instance.id` and `gateway.worker` name the instance and worker so traces
 * from several processes on one backend can be told apart.
 */
import { type Attribute, str } from "./span.ts";
import { ResourceAttr, SCOPE_NAME } from "./semconv.ts";

/** The resource attributes and instrumentation scope of one exporting process. */
export interface Resource {
  readonly attributes: readonly Attribute[];
  readonly scopeName: string;
  readonly scopeVersion: string;
}

/** What names this process. */
export interface ResourceInput {
  readonly serviceName: string;
  readonly serviceVersion: string;
  /** The instance name (`metrics.instance` or the host name); "" leaves it out. */
  readonly instance: string;
  /** The worker number under `serve --workers`, or null for a single process. */
  readonly worker: number | null;
  /** `OTEL_RESOURCE_ATTRIBUTES` and the YAML's `resource_attributes`, already merged. */
  readonly extra: Readonly<Record<string, string>>;
}

/**
 * The resource for this process. Configured extra attributes come first and the gateway's own names
 * win over them, except `service.name`, which the configuration resolved already.
 */
export function buildResource(input: ResourceInput): Resource {
  const values = new Map<string, string>(Object.entries(input.extra));
  values.set(ResourceAttr.serviceName, input.serviceName);
  values.set(ResourceAttr.serviceVersion, input.serviceVersion);
  if (input.instance !== "") values.set(ResourceAttr.serviceInstanceId, input.instance);
  if (input.worker !== null) values.set(ResourceAttr.worker, String(input.worker));
  return {
    attributes: [...values].map(([key, value]) => ({ key, value: str(value) })),
    scopeName: SCOPE_NAME,
    scopeVersion: input.serviceVersion,
  };
}
