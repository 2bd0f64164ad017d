/** One function tool as a chat-completions client sends it (with `strict`, which only this format has). */
export const TOOLS = [{
  type: "function",
  function: {
    name: "get_weather",
    description: "Weather for a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    strict: true,
  },
}];
