/** Lines typed (or piped) into the process, for commands that ask the user something. */

/**
 * A reader of standard input one line at a time; null once it has ended. Standard input is opened on the
 * first read, so commands that never ask (serve) leave it alone.
 */
export function stdinLineReader(
  open: () => ReadableStream<Uint8Array> = () => Deno.stdin.readable,
): () => Promise<string | null> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  const decoder = new TextDecoder();
  let buffer = "";
  let ended = false;
  return async () => {
    while (true) {
      const newline = buffer.indexOf("\n");
      if (newline >= 0) {
        const line = buffer.slice(0, newline).replace(/\r$/, "");
        buffer = buffer.slice(newline + 1);
        return line;
      }
      if (ended) {
        if (buffer === "") return null;
        const last = buffer;
        buffer = "";
        return last;
      }
      reader ??= open().getReader();
      const { value, done } = await reader.read();
      if (done) ended = true;
      else buffer += decoder.decode(value, { stream: true });
    }
  };
}
