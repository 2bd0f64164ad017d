/**
 * A CPU budget for a process tree through a cgroup's CPU quota (cgroup v1 `cpu` controller or v2
 * `cpu.max`), so a benchmark can give the gateway "free cores" on a machine whose cores it shares with
 * the load generator and the mock: N workers with N half-cores of budget against one worker with one,
 * while wrk and the mock keep the rest. Needs root (or a delegated cgroup); `cpuQuotaUnavailable()` says
 * why not otherwise.
 */
const V1 = "/sys/fs/cgroup/cpu";
const V2 = "/sys/fs/cgroup";

function writable(dir: string): boolean {
  try {
    const probe = `${dir}/gateway-bench-probe-${Deno.pid}`;
    Deno.mkdirSync(probe);
    Deno.removeSync(probe);
    return true;
  } catch {
    return false;
  }
}

function version(): 1 | 2 | null {
  try {
    if (Deno.statSync(`${V1}/cpu.cfs_quota_us`).isFile && writable(V1)) return 1;
  } catch { /* no v1 cpu controller */ }
  try {
    if (Deno.readTextFileSync(`${V2}/cgroup.controllers`).split(" ").includes("cpu") && writable(V2)) {
      return 2;
    }
  } catch { /* no v2 hierarchy */ }
  return null;
}

/** Why CPU quotas cannot be set here, or null when they can. */
export function cpuQuotaUnavailable(): string | null {
  return version() === null ? "no writable cgroup with a CPU controller (needs root)" : null;
}

/** A cgroup limited to `cores` cores' worth of CPU time; `wrap` runs a command inside it. */
export interface CpuQuota {
  /** `sh -c` arguments that move the shell into the cgroup, then exec `command` (children inherit it). */
  wrap(command: string[]): string[];
  remove(): void;
}

export function cpuQuota(name: string, cores: number): CpuQuota {
  const v = version();
  if (v === null) throw new Error(cpuQuotaUnavailable()!);
  const dir = `${v === 1 ? V1 : V2}/${name}-${Deno.pid}`;
  Deno.mkdirSync(dir, { recursive: true });
  const period = 100_000;
  const quota = Math.round(cores * period);
  if (v === 1) {
    Deno.writeTextFileSync(`${dir}/cpu.cfs_period_us`, String(period));
    Deno.writeTextFileSync(`${dir}/cpu.cfs_quota_us`, String(quota));
  } else Deno.writeTextFileSync(`${dir}/cpu.max`, `${quota} ${period}`);
  const quote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;
  return {
    wrap: (command) => ["-c", `echo $$ > ${dir}/cgroup.procs && exec ${command.map(quote).join(" ")}`],
    remove() {
      try {
        Deno.removeSync(dir);
      } catch { /* processes still inside; the kernel frees it when they exit */ }
    },
  };
}
