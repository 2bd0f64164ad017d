// The only lines RTK drops without a trace of their words: output that tools print to show they are
// busy, which says nothing once the command has finished. Each run of them is replaced by a marker.
const NOISE: readonly RegExp[] = [
  // npm's request and timing chatter (`--loglevel http|timing|silly`); a request that failed (4xx/5xx)
  // is not chatter: it names the package that could not be fetched.
  /^npm (?:timing|sill|silly|verb)\b|^npm http\b(?! fetch \S+ [45]\d\d\b)/,
  // Progress bars: block characters, or a bracketed bar like [#####.....] / [=====>   ].
  /[█▓▒░■□]{4,}|\[[#=>.\- ]{10,}\]/,
  // Spinner frames left behind by terminals that do not redraw.
  /^\s*[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]\s*$/,
  // Maven's artifact downloads.
  /^\[INFO\] Download(?:ing|ed) from \S+: https?:\/\//,
];

/** True for a progress or download line that carries nothing once the command is done. */
export function isNoise(line: string): boolean {
  for (const pattern of NOISE) if (pattern.test(line)) return true;
  return false;
}
