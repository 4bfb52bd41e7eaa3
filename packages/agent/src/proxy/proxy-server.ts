/**
 * `@pi/agent-core/proxy-server`: the server half of `streamProxy`. A separate entry so that a
 * browser bundle of the client (`streamProxy` from the main entry) never includes it.
 */
export { handleProxyRequest, type ProxyServerOptions } from "./handle-proxy-request.js";
export { type ProxyAssistantMessageEvent, toProxyEvent } from "./proxy-events.js";
export type { ProxyRequestBody } from "./stream-proxy.js";
