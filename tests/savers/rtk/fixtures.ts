/** Generators of realistic tool outputs for the RTK golden tests. */

function hex(n: number, length = 40): string {
  let out = "";
  let x = (n + 1) * 2654435761;
  while (out.length < length) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += x.toString(16);
  }
  return out.slice(0, length);
}

/** `git log` with `count` commits, long bodies, trailers and merge commits. */
export function gitLog(count: number): string {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    lines.push(`commit ${hex(i)}${i === 0 ? " (HEAD -> main, origin/main)" : ""}`);
    if (i % 7 === 0) lines.push(`Merge: ${hex(i + 1000, 7)} ${hex(i + 2000, 7)}`);
    lines.push(`Author: Dev ${i % 5} <dev${i % 5}@example.com>`);
    lines.push(`Date:   Mon Jan ${(i % 28) + 1} 10:${String(i % 60).padStart(2, "0")}:00 2024 +0100`);
    lines.push("");
    lines.push(
      i === 250
        ? `    Fix panic in parser when input is empty`
        : `    Change number ${i}: tweak module ${i % 13}`,
    );
    lines.push("");
    for (let b = 0; b < 6; b++) {
      lines.push(`    Body line ${b} explaining the change ${i} in some detail for reviewers.`);
    }
    lines.push("");
    lines.push(`    Signed-off-by: Dev ${i % 5} <dev${i % 5}@example.com>`);
    lines.push("");
  }
  return lines.join("\n");
}

/** A failing `npm install` with errors buried in progress and fetch noise. */
export function npmInstallFailure(): { text: string; errors: string[]; tail: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  for (let i = 0; i < 800; i++) {
    lines.push(`npm http fetch GET 200 https://registry.npmjs.org/pkg-${i} ${i % 90}ms (cache miss)`);
    if (i % 40 === 0) {
      lines.push(`[${"#".repeat(i % 30 + 10)}${".".repeat(20)}] ${Math.floor(i / 8)}% reify:pkg-${i}`);
    }
    if (i === 200) {
      const e = "npm WARN deprecated request@2.88.2: request has been deprecated";
      lines.push(e);
      errors.push(e);
    }
    if (i === 500) {
      const e1 = "npm ERR! code ERESOLVE";
      const e2 = "npm ERR! ERESOLVE unable to resolve dependency tree";
      lines.push(e1, e2);
      errors.push(e1, e2);
    }
  }
  const tail = [
    "npm ERR! ",
    "npm ERR! While resolving: my-app@1.0.0",
    "npm ERR! Found: react@18.2.0",
    "npm ERR! node_modules/react",
    'npm ERR!   react@"^18.2.0" from the root project',
    "npm ERR! ",
    "npm ERR! Could not resolve dependency:",
    'npm ERR! peer react@"^17.0.0" from some-lib@2.0.0',
    "npm ERR! node_modules/some-lib",
    'npm ERR!   some-lib@"^2.0.0" from the root project',
    "npm ERR! ",
    "npm ERR! Fix the upstream dependency conflict, or retry",
    "npm ERR! this command with --force or --legacy-peer-deps",
    "npm ERR! to accept an incorrect (and potentially broken) dependency resolution.",
    "npm ERR! ",
    "npm ERR! A complete log of this run can be found in:",
    "npm ERR!     /home/u/.npm/_logs/2024-01-01T10_00_00_000Z-debug-0.log",
    "",
    "Exit code 1",
    "done in 12.3s",
  ];
  lines.push(...tail);
  return { text: lines.join("\n"), errors, tail };
}

/** A 5,000-line `grep -rn` across 60 files. */
export function bigGrep(): { text: string; files: string[] } {
  const lines: string[] = [];
  const files: string[] = [];
  for (let f = 0; f < 60; f++) files.push(`src/module_${f % 6}/file_${f}.ts`);
  for (let i = 0; i < 5000; i++) {
    const file = files[Math.floor((i * 60) / 5000)];
    lines.push(`${file}:${i + 1}:  const value${i} = computeSomething(input, ${i}); // TODO tidy`);
  }
  return { text: lines.join("\n"), files };
}

/** A `git diff` of two files with extended context. */
export function gitDiff(): string {
  const lines: string[] = [];
  for (let f = 0; f < 2; f++) {
    lines.push(`diff --git a/src/f${f}.ts b/src/f${f}.ts`, `index ${hex(f, 7)}..${hex(f + 9, 7)} 100644`);
    lines.push(`--- a/src/f${f}.ts`, `+++ b/src/f${f}.ts`, `@@ -1,40 +1,41 @@ export function f${f}() {`);
    for (let i = 0; i < 15; i++) lines.push(`   unchanged line ${i} of file ${f}`);
    lines.push(`-  const old = ${f};`, `+  const fresh = ${f} + 1;`, `+  throw new Error("boom ${f}");`);
    for (let i = 0; i < 15; i++) lines.push(`   trailing unchanged line ${i}`);
  }
  return lines.join("\n");
}

/** A long-form `git status` with many untracked files. */
export function gitStatus(): string {
  const lines = [
    "On branch main",
    "Your branch is up to date with 'origin/main'.",
    "",
    "Changes to be committed:",
    '  (use "git restore --staged <file>..." to unstage)',
    "\tmodified:   src/a.ts",
    "\tnew file:   src/b.ts",
    "",
    "Changes not staged for commit:",
    '  (use "git add <file>..." to update what will be committed)',
    '  (use "git restore <file>..." to discard changes in working directory)',
    "\tmodified:   src/c.ts",
    "\tdeleted:    src/d.ts",
    "",
    "Untracked files:",
    '  (use "git add <file>..." to include in what will be committed)',
  ];
  for (let i = 0; i < 120; i++) lines.push(`\tscratch/tmp_${i}.log`);
  lines.push("", 'no changes added to commit (use "git add" and/or "git commit -a")');
  return lines.join("\n");
}

/** `find .` over nested directories. */
export function findOutput(): { text: string; dirs: string[] } {
  const lines = ["."];
  const dirs: string[] = [];
  for (let d = 0; d < 8; d++) {
    const dir = `./pkg/dir_${d}`;
    dirs.push(dir);
    lines.push(dir);
    for (let f = 0; f < 40; f++) lines.push(`${dir}/component_${f}.tsx`);
  }
  return { text: lines.join("\n"), dirs };
}

/** `tree` over a deep hierarchy. */
export function treeOutput(): string {
  const lines = ["."];
  const walk = (prefix: string, depth: number) => {
    const count = depth === 0 ? 6 : 4;
    for (let i = 0; i < count; i++) {
      const last = i === count - 1;
      lines.push(`${prefix}${last ? "└── " : "├── "}${depth < 4 ? `dir_${depth}_${i}` : `file_${i}.ts`}`);
      if (depth < 4) walk(prefix + (last ? "    " : "│   "), depth + 1);
    }
  };
  walk("", 0);
  lines.push("", "1530 directories, 1536 files");
  return lines.join("\n");
}

/** `ls -l` of a directory. */
export function lsLong(): string {
  const lines = ["total 1024"];
  lines.push("drwxr-xr-x  5 alice staff   160 Jan  2 10:00 .");
  lines.push("drwxr-xr-x 20 alice staff   640 Jan  2 09:00 ..");
  for (let i = 0; i < 30; i++) {
    lines.push(
      `-rw-r--r--  1 alice staff  ${1000 + i * 37} Mar ${(i % 28) + 1} 12:${
        String(i).padStart(2, "0")
      } report_${i}.csv`,
    );
  }
  lines.push("drwxr-xr-x  3 alice staff    96 Feb  1  2023 archive");
  return lines.join("\n");
}

/** A service log with long runs of near-identical lines and a few distinct errors. */
export function repetitiveLog(): { text: string; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  for (let i = 0; i < 400; i++) {
    const ts = `2024-05-01T10:${String(Math.floor(i / 60)).padStart(2, "0")}:${
      String(i % 60).padStart(2, "0")
    }.123Z`;
    lines.push(`${ts} INFO worker-3 heartbeat ok latency=${i % 4}ms queue=0`);
    if (i % 100 === 99) {
      const e = `${ts} ERROR worker-3 connection reset by peer (attempt ${i})`;
      lines.push(e);
      errors.push(e);
    }
  }
  return { text: lines.join("\n"), errors };
}
