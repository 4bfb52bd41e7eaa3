/**
 * The `--help` text of every command, with examples. Plain strings in a module of their own, so
 * that `pi-ai --help` loads nothing else.
 */

const MAIN = `pi-ai: stream any model from the terminal, keep conversations, see what they cost.

Usage
  pi-ai [options] [prompt...]       ask a model (the prompt may also come on standard input)
  pi-ai models [filter]             list the models you can use
  pi-ai models add ID --base-url URL [--api API] [--name NAME]
                                    save a model the catalog lacks (a local server); then -m ID
  pi-ai keys set|list|remove        store API keys (mode 600, never printed)
  pi-ai sessions                    list past conversations
  pi-ai show ID                     print a conversation
  pi-ai help COMMAND                help for a command (or: pi-ai COMMAND --help)
  pi-ai --version                   the version

Options
  -m, --model PROVIDER/MODEL[:THINKING]
                     the model, e.g. anthropic/claude-haiku-4-5:high; THINKING is off, minimal,
                     low, medium, high or xhigh; or the ID of a model you added (default
                     model: pi-ai models default)
  -s, --system TEXT  the system prompt
  -a, --attach FILE  attach an image (PNG, JPEG, GIF, WebP); repeatable
      --base-url URL any OpenAI-compatible server (Ollama, vLLM, LM Studio, llama.cpp); -m is
                     then the id the server knows, catalog or not (default: PI_BASE_URL)
      --api API      the wire API to speak: openai-completions, openai-responses,
                     anthropic-messages or google-generative-ai
  -c, --continue     continue the last conversation
      --session ID|PATH
                     continue the conversation with this id, or in this .jsonl file
      --no-session   keep nothing of this conversation
      --tool NAME    give the model a built-in tool (calculator); repeatable
      --tools FILE   give the model the tools a module exports; repeatable
      --approve      ask y/n before each tool call runs (off a terminal, calls are refused)
      --no-thinking  do not show the model's thinking
      --no-stdin     do not read standard input (in a while-read loop, or on an open pipe)
      -              read standard input even on a terminal (until Ctrl-D)
      --json         one JSON event per line on standard output, then the result
      --schema FILE  reply with JSON matching the JSON Schema in FILE; standard output gets
                     the validated object (the raw reply streams to standard error)
  -q, --quiet        no usage, cost and time line on standard error
  -h, --help         this help

Standard input
  When it is not a terminal, standard input is read to its end and comes before the prompt
  (cat notes.txt | pi-ai "Summarise this."). In a "while read" loop, or when the pipe stays open,
  pass --no-stdin (or < /dev/null): otherwise pi-ai reads the loop's input, or waits for the end.

Output
  The reply streams to standard output; thinking (dimmed), tool calls, and the usage, cost and
  time line go to standard error. No colours when the output is not a terminal or NO_COLOR is set.

Exit codes
  0 done · 1 the model replied with an error, or could not be reached · 2 usage error (bad flag,
  unknown model, missing key, unreadable file; nothing is sent) · 130 interrupted with Ctrl-C,
  143 SIGTERM, 129 SIGHUP, 141 standard output closed (the partial reply is kept)

Examples
  pi-ai "Name three primes."
  pi-ai -m anthropic/claude-haiku-4-5:high "Why is the sky blue?"
  cat notes.txt | pi-ai -s "You are terse." "Summarise this."
  pi-ai -a photo.jpg "What is in this picture?"
  pi-ai -c "And in French?"
  pi-ai --tool calculator "What is 1234 * 5678?"
  pi-ai --base-url http://localhost:11434/v1 -m llama3.1 "Hello"
  pi-ai models add llama3.1 --base-url http://localhost:11434/v1 && pi-ai -m llama3.1 "Hello"
  while read -r q; do pi-ai --no-stdin --no-session "$q"; done < questions.txt
  pi-ai --json "Hi" | jq -r 'select(.type == "text_delta") | .delta'

Keys come from the environment (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY, …) or from
pi-ai keys set PROVIDER; a server on this machine (localhost, 127.*) needs none. Environment:
PI_BASE_URL (as --base-url) and PI_MODEL (the default model, over PI_AI_MODEL and the one set with
pi-ai models default); flags win. Files: keys, settings and added models under
$XDG_CONFIG_HOME/pi-ai (~/.config/pi-ai), conversations under $XDG_DATA_HOME/pi-ai/sessions
(~/.local/share/pi-ai/sessions).
`;

const MODELS = `pi-ai models: list the models of the catalog, and the ones you added.

Usage
  pi-ai models [filter] [--json]
  pi-ai models default [PROVIDER/MODEL[:THINKING]]
  pi-ai models add ID --base-url URL [--api API] [--name NAME]
  pi-ai models remove ID

  FILTER keeps the models whose provider/id or name contains it (case-insensitive).
  The table shows provider, id, context window, prices in US dollars per million input and
  output tokens, and whether a key is set for the provider (env, file, or -).
  "models default" prints the default model, or sets it (in config.json; PI_MODEL and
  PI_AI_MODEL win).
  "models add" saves a model the catalog lacks, in config.json: ID is the id the server knows
  (and what -m takes), API is openai-completions (default), openai-responses,
  anthropic-messages or google-generative-ai. Added models are listed first, as "added"; their
  key, when the server needs one, is PI_API_KEY (pi-ai keys set openai-compatible).
  "models remove" forgets one.

Options
  --json       the same as a JSON array
  -h, --help   this help

Examples
  pi-ai models
  pi-ai models haiku
  pi-ai models anthropic/ --json | jq '.[].id'
  pi-ai models default anthropic/claude-haiku-4-5:low
  pi-ai models add llama3.1:8b --base-url http://localhost:11434/v1
  pi-ai models add claude-local --base-url http://127.0.0.1:8080 --api anthropic-messages
  pi-ai models remove llama3.1:8b
`;

const KEYS = `pi-ai keys: store API keys in a file only you can read.

Usage
  pi-ai keys set PROVIDER     read the key without echo (or from standard input) and store it
  pi-ai keys list             the providers with a key, and where it comes from
  pi-ai keys remove PROVIDER  forget a stored key

  Keys are kept in keys.json under $XDG_CONFIG_HOME/pi-ai (~/.config/pi-ai), mode 600, and never
  printed. A key in the environment (OPENAI_API_KEY, …) wins over a stored one. For --base-url
  servers the provider is openai-compatible (environment: PI_API_KEY).

Examples
  pi-ai keys set anthropic
  echo "$OPENAI_API_KEY" | pi-ai keys set openai
  pi-ai keys list
  pi-ai keys remove openai
`;

const SESSIONS = `pi-ai sessions: list past conversations, newest first.

Usage
  pi-ai sessions [--limit N] [--json]

  Each line shows the id, date, model (and where it ran, when that is not the catalog's URL),
  first line of the first prompt and total cost. Every
  prompt is kept (unless --no-session) in a .jsonl file under $XDG_DATA_HOME/pi-ai/sessions
  (~/.local/share/pi-ai/sessions). Continue one with pi-ai -c (the last one) or
  pi-ai --session ID.

Options
  -n, --limit N  at most N conversations (default 20; 0 for all)
  --json         the same as a JSON array
  -h, --help     this help

Examples
  pi-ai sessions
  pi-ai sessions -n 5
  pi-ai show $(pi-ai sessions --json | jq -r '.[0].id')
`;

const SHOW = `pi-ai show: print a conversation.

Usage
  pi-ai show ID|PATH [--json]

  ID is a session id from pi-ai sessions (a unique prefix is enough), or the path of a .jsonl
  session file.

Options
  --json       the messages as a JSON array
  -h, --help   this help

Examples
  pi-ai show 01JD3K
  pi-ai show ~/.local/share/pi-ai/sessions/2026-12-01T21-05-00-abc123.jsonl
`;

/** Help texts by command; `""` is the main help. */
export const HELP: Readonly<Record<string, string>> = { "": MAIN, models: MODELS, keys: KEYS, sessions: SESSIONS, show: SHOW };
