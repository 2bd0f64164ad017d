/** A configuration problem, reported with the file, the key path and the line where known. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}
