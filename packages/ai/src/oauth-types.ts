/**
 * The reference's OAuth types, as types only. This package implements no OAuth login or token
 * refresh (subscriptions such as Claude Pro or ChatGPT Plus are not API keys); these types exist
 * so that code which stores credentials or implements its own `OAuthProviderInterface` compiles
 * after moving over. Pass the resulting access token as `options.apiKey`. See docs/migration.md.
 */
import type { Api, Model } from "./types.js";

/** Stored credentials: refresh and access tokens and the access token's expiry (epoch ms). */
export type OAuthCredentials = {
	refresh: string;
	access: string;
	expires: number;
	[key: string]: unknown;
};

export type OAuthProviderId = string;

export type OAuthProvider = OAuthProviderId;

/** A text question to the user during login. */
export type OAuthPrompt = {
	message: string;
	placeholder?: string;
	allowEmpty?: boolean;
};

/** Where the user should go to authorise. */
export type OAuthAuthInfo = {
	url: string;
	instructions?: string;
};

export type OAuthSelectOption = {
	id: string;
	label: string;
};

/** A choice put to the user during login. */
export type OAuthSelectPrompt = {
	message: string;
	options: OAuthSelectOption[];
};

/** What a login flow may ask the app to do. */
export interface OAuthLoginCallbacks {
	onAuth: (info: OAuthAuthInfo) => void;
	onPrompt: (prompt: OAuthPrompt) => Promise<string>;
	onProgress?: (message: string) => void;
	onManualCodeInput?: () => Promise<string>;
	onSelect?: (prompt: OAuthSelectPrompt) => Promise<string | undefined>;
	signal?: AbortSignal;
}

/** An OAuth provider an app implements itself. */
export interface OAuthProviderInterface {
	readonly id: OAuthProviderId;
	readonly name: string;
	login(callbacks: OAuthLoginCallbacks): Promise<OAuthCredentials>;
	usesCallbackServer?: boolean;
	refreshToken(credentials: OAuthCredentials): Promise<OAuthCredentials>;
	getApiKey(credentials: OAuthCredentials): string;
	modifyModels?(models: Model<Api>[], credentials: OAuthCredentials): Model<Api>[];
}

export interface OAuthProviderInfo {
	id: OAuthProviderId;
	name: string;
	available: boolean;
}
