/**
 * What a Responses request's error adds when the server looks like a Chat Completions server: a
 * 404 for `/responses`, or a body with no Responses events (Ollama, llama.cpp and most
 * hand-written servers speak only Chat Completions, and a catalog model such as
 * `openai/gpt-4o-mini` is a Responses model).
 */
export const CHAT_COMPLETIONS_HINT = 'The server may speak Chat Completions rather than Responses: use api: "openai-completions" for this model.';
