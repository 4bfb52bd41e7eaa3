/**
 * `@pi/ui-stream`: the AI SDK's UI message stream protocol for `@pi/agent-core` agents, so that
 * a `useChat` front end (React, Vue, Svelte, Angular) talks to our agent, its sessions and its
 * approvals. No run-time dependency on `ai`: the types are this package's own, checked
 * against `ai`'s by a type test. See docs/use-chat.md.
 *
 * @packageDocumentation
 */
export { type AgentEventChunksOptions, createAgentEventChunks, finishReasonOf } from "./agent-event-chunks.js";
export { type AgentUIStreamOptions, createAgentUIStream, type MessageMetadataContext } from "./create-agent-ui-stream.js";
export { createAgentUIStreamResponse } from "./create-agent-ui-stream-response.js";
export { type ApprovalResponse, approvalResponses, type FromUIMessagesOptions, fromUIMessages } from "./from-ui-messages.js";
export { PI_KEY, type PiMessageMetadata, type PiStepMetadata } from "./pi-metadata.js";
export { type ToUIMessagesOptions, toolResultOutput, toUIMessages } from "./to-ui-messages.js";
export type * from "./ui-message.js";
export { UIMessagesError } from "./ui-messages-error.js";
export { UI_MESSAGE_STREAM_HEADERS, uiMessageChunkSseStream } from "./ui-message-sse.js";
