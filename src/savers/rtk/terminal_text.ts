const ESC = String.fromCharCode(27);
const BEL = String.fromCharCode(7);
// CSI sequences (colours, cursor moves) and OSC sequences (titles, hyperlinks).
const CSI = new RegExp(`${ESC}\\[[0-9;?]*[ -/]*[@-~]`, "g");
const OSC = new RegExp(`${ESC}\\][^${BEL}${ESC}]*(?:${BEL}|${ESC}\\\\)`, "g");
const OTHER_ESCAPE = new RegExp(`${ESC}[@-Z\\\\-_]`, "g");

/**
 * Removes ANSI escape codes and resolves carriage-return overwrites (progress bars redraw one line
 * with `\r`; the terminal shows only the last version, so that is the one kept).
 */
export function cleanTerminalText(text: string): string {
  let out = text.includes(ESC) ? text.replace(OSC, "").replace(CSI, "").replace(OTHER_ESCAPE, "") : text;
  if (out.includes("\r")) {
    out = out.replace(/\r\n/g, "\n").split("\n").map((line) => {
      const trimmed = line.replace(/\r+$/, "");
      const at = trimmed.lastIndexOf("\r");
      return at === -1 ? trimmed : trimmed.slice(at + 1);
    }).join("\n");
  }
  return out;
}
