import type { Provider } from "@pi/ai";

/** Our provider ids whose `gen_ai.provider.name` differs from the id itself. */
const WELL_KNOWN: Record<string, string> = {
	google: "gcp.gemini",
	"google-vertex": "gcp.vertex_ai",
	"amazon-bedrock": "aws.bedrock",
	"azure-openai-responses": "azure.ai.openai",
	mistral: "mistral_ai",
	xai: "x_ai",
};

/**
 * `gen_ai.provider.name` for a provider: the conventions' well-known value where there is one
 * (`openai`, `anthropic`, `gcp.gemini`, `aws.bedrock`, …), otherwise our own provider id.
 */
export function providerName(provider: Provider): string {
	return WELL_KNOWN[provider] ?? provider;
}
