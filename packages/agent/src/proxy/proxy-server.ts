/**
 * `@pi/agent-core/proxy-server`: the server half of `streamProxy`. A separate entry so that a
 * browser bundle of the client (`streamProxy` from the main entry) never includes it.
 */
export { DEFAULT_MAX_BODY_DEPTH, handleProxyRequest, type ProxyCallUsage, type ProxyServerOptions } from "./handle-proxy-request.js";
export type { ProxyLimits } from "./proxy-limits.js";
export { type ProxyAssistantMessageEvent, toProxyEvent } from "./proxy-events.js";
export type { ProxyRequestBody } from "./stream-proxy.js";
export { type NodeHandlerOptions, toNodeHandler } from "./to-node-handler.js";
