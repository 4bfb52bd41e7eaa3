/**
 * The reference's OAuth types, as types only. This package implements no OAuth login or token
 * refresh (subscriptions such as Claude Pro or ChatGPT Plus are not API keys); these types exist
 * so that code which stores credentials or implements its own `OAuthProviderInterface` compiles
 * after moving over. Pass the resulting access token as `options.apiKey`. See docs/migration.md.
 */
import type { Api, Model } from "./types.js";

/** Stored credentials: refresh and access tokens and the access token's expiry (epoch ms). Types only: @pi/ai has no OAuth flow behind it (see docs/migration.md); pass your own flow's access token as `options.apiKey`. */
export type OAuthCredentials = {
	refresh: string;
	access: string;
	expires: number;
	[key: string]: unknown;
};

/** The id of an OAuth provider (the reference's `anthropic`, `openai-codex`, …). Types only: @pi/ai has no OAuth flow behind it (see docs/migration.md); pass your own flow's access token as `options.apiKey`. */
export type OAuthProviderId = string;

/** The reference's older name of {@link OAuthProviderId}. Types only: @pi/ai has no OAuth flow behind it (see docs/migration.md); pass your own flow's access token as `options.apiKey`. */
export type OAuthProvider = OAuthProviderId;

/** A text question to the user during login. Types only: @pi/ai has no OAuth flow behind it (see docs/migration.md); pass your own flow's access token as `options.apiKey`. */
export type OAuthPrompt = {
	message: string;
	placeholder?: string;
	allowEmpty?: boolean;
};

/** Where the user should go to authorise. Types only: @pi/ai has no OAuth flow behind it (see docs/migration.md); pass your own flow's access token as `options.apiKey`. */
export type OAuthAuthInfo = {
	url: string;
	instructions?: string;
};

/** One option of an {@link OAuthSelectPrompt}. Types only: @pi/ai has no OAuth flow behind it (see docs/migration.md); pass your own flow's access token as `options.apiKey`. */
export type OAuthSelectOption = {
	id: string;
	label: string;
};

/** A choice put to the user during login. Types only: @pi/ai has no OAuth flow behind it (see docs/migration.md); pass your own flow's access token as `options.apiKey`. */
export type OAuthSelectPrompt = {
	message: string;
	options: OAuthSelectOption[];
};

/** What a login flow may ask the app to do. Types only: @pi/ai has no OAuth flow behind it (see docs/migration.md); pass your own flow's access token as `options.apiKey`. */
export interface OAuthLoginCallbacks {
	onAuth: (info: OAuthAuthInfo) => void;
	onPrompt: (prompt: OAuthPrompt) => Promise<string>;
	onProgress?: (message: string) => void;
	onManualCodeInput?: () => Promise<string>;
	onSelect?: (prompt: OAuthSelectPrompt) => Promise<string | undefined>;
	signal?: AbortSignal;
}

/** An OAuth provider an app implements itself: nothing in @pi/ai calls it. Types only: @pi/ai has no OAuth flow behind it (see docs/migration.md); pass your own flow's access token as `options.apiKey`. */
export interface OAuthProviderInterface {
	readonly id: OAuthProviderId;
	readonly name: string;
	login(callbacks: OAuthLoginCallbacks): Promise<OAuthCredentials>;
	usesCallbackServer?: boolean;
	refreshToken(credentials: OAuthCredentials): Promise<OAuthCredentials>;
	getApiKey(credentials: OAuthCredentials): string;
	modifyModels?(models: Model<Api>[], credentials: OAuthCredentials): Model<Api>[];
}

/** What the reference lists about an OAuth provider. Types only: @pi/ai has no OAuth flow behind it (see docs/migration.md); pass your own flow's access token as `options.apiKey`. */
export interface OAuthProviderInfo {
	id: OAuthProviderId;
	name: string;
	available: boolean;
}
