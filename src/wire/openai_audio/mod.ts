/**
 * OpenAI's audio API: `/v1/audio/transcriptions` and `/translations` (multipart, one audio file) and
 * `/v1/audio/speech` (JSON in, audio bytes out). Only OpenAI-compatible upstreams serve it, so requests are
 * checked here and sent on with the upstream's model name; answers are read only for what they cost.
 */
import type {
  MultipartBody,
  NeutralSpeechRequest,
  NeutralTranscriptionRequest,
  Usage,
} from "../../model/mod.ts";
import { invalidAt, isRecord, quoteValue } from "../shared/mod.ts";

/** Longest speech input OpenAI takes, in characters. */
export const MAX_SPEECH_INPUT_CHARS = 4096;

/** Decodes a transcription or translation form; throws GatewayError 400 naming the failing field. */
export function decodeTranscription(form: MultipartBody): NeutralTranscriptionRequest {
  const model = form.fields.model;
  if (model === undefined || model === "") throw invalidAt(["model"], "is required");
  const file = form.files.find((f) => f.field === "file");
  if (file === undefined) throw invalidAt(["file"], "is required: attach the audio as a file");
  if (file.data.length === 0) throw invalidAt(["file"], `file ${quoteValue(file.filename)} is empty`);
  const stream = form.fields.stream;
  if (stream !== undefined && stream !== "true" && stream !== "false") {
    throw invalidAt(["stream"], `must be true or false (got ${quoteValue(stream)})`);
  }
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(form.fields)) {
    if (key !== "model" && key !== "stream") fields[key] = value;
  }
  return { model, file, stream: stream === "true", fields };
}

/** The upstream form: the client's fields and file, with the upstream's model name. */
export function encodeTranscription(
  request: NeutralTranscriptionRequest,
  upstreamModel: string,
): MultipartBody {
  const fields: Record<string, string> = { ...request.fields, model: upstreamModel };
  if (request.stream) fields.stream = "true";
  return { fields, files: [request.file] };
}

/** Decodes a speech body; throws GatewayError 400 naming the failing field. */
export function decodeSpeech(body: unknown): NeutralSpeechRequest {
  if (!isRecord(body)) throw invalidAt([], "must be a JSON object");
  const model = body.model;
  if (typeof model !== "string" || model === "") throw invalidAt(["model"], "is required");
  const input = body.input;
  if (typeof input !== "string" || input === "") throw invalidAt(["input"], "must be non-empty text");
  if (input.length > MAX_SPEECH_INPUT_CHARS) {
    throw invalidAt(["input"], `is ${input.length} characters; at most ${MAX_SPEECH_INPUT_CHARS} are taken`);
  }
  if (typeof body.voice !== "string" && !isRecord(body.voice)) throw invalidAt(["voice"], "is required");
  return { model, input, body };
}

/** The upstream speech body with the upstream's model name. */
export function encodeSpeech(request: NeutralSpeechRequest, upstreamModel: string): Record<string, unknown> {
  return { ...request.body, model: upstreamModel };
}

/** What a transcription answer says it cost: seconds of audio and/or token usage. */
export interface TranscriptionBillFacts {
  readonly seconds?: number;
  readonly usage?: Usage;
}

/**
 * The bill facts of a transcription answer (a JSON body, or the data of a stream's `transcript.text.done`
 * event): `duration` (verbose_json), `usage: {type: "duration", seconds}` or token `usage`.
 */
export function transcriptionBill(value: unknown): TranscriptionBillFacts {
  if (!isRecord(value)) return {};
  const out: { seconds?: number; usage?: Usage } = {};
  if (typeof value.duration === "number" && value.duration >= 0) out.seconds = value.duration;
  const usage = value.usage;
  if (isRecord(usage)) {
    if (usage.type === "duration" && typeof usage.seconds === "number") out.seconds = usage.seconds;
    const input = typeof usage.input_tokens === "number" ? usage.input_tokens : 0;
    const output = typeof usage.output_tokens === "number" ? usage.output_tokens : 0;
    if (input > 0 || output > 0) {
      out.usage = { inputTotal: input, cacheRead: 0, cacheWrite: 0, output, reasoning: 0 };
    }
  }
  return out;
}
