// Runs the real AI SDK (`ai`, pinned in package.json) over histories toolhist sends, one JSON job per
// stdin line, and prints one JSON answer per line: the request body the provider adapter would POST
// (captured by a `fetch` that answers 400 at once: nothing leaves the machine), or what it threw.
//
// job: {"route": "model" | "ui", "provider": "openai-chat" | "openai-responses" | "anthropic",
//       "messages": [...]}   model: ModelMessage[]; ui: UIMessage[] through
//       convertToModelMessages(messages, {ignoreIncompleteToolCalls: true}) first.
import readline from 'node:readline';
import { generateText, convertToModelMessages } from 'ai';
import { createOpenAI } from '@ai-sdk/openai';
import { createAnthropic } from '@ai-sdk/anthropic';

let captured = null;
async function capture(url, init) {
  captured = { path: new URL(String(url)).pathname, body: JSON.parse(init.body) };
  return new Response(JSON.stringify({ error: { message: 'captured by toolhist', type: 'invalid_request_error' } }), {
    status: 400,
    headers: { 'content-type': 'application/json' },
  });
}

const openai = createOpenAI({ apiKey: 'toolhist-dummy', baseURL: 'http://127.0.0.1:9/v1', fetch: capture });
const anthropic = createAnthropic({ apiKey: 'toolhist-dummy', baseURL: 'http://127.0.0.1:9/v1', fetch: capture });
const MODELS = {
  'openai-chat': () => openai.chat('gpt-4.1'),
  'openai-responses': () => openai.responses('gpt-4.1'),
  anthropic: () => anthropic('claude-sonnet-4-5'),
};

async function answer(job) {
  captured = null;
  try {
    const messages =
      job.route === 'ui' ? await convertToModelMessages(job.messages, { ignoreIncompleteToolCalls: true }) : job.messages;
    await generateText({ model: MODELS[job.provider](), messages, maxRetries: 0 });
  } catch (error) {
    if (captured === null) {
      return { raised: error?.name ?? String(error), message: String(error?.message ?? error).split('\n')[0] };
    }
  }
  if (captured === null) return { raised: 'NoRequest', message: 'generateText returned without a request' };
  return captured;
}

const versions = {};
for (const name of ['ai', '@ai-sdk/openai', '@ai-sdk/anthropic']) {
  const pkg = await import(`${name}/package.json`, { with: { type: 'json' } }).catch(() => null);
  versions[name] = pkg?.default?.version ?? null;
}
process.stdout.write(JSON.stringify({ ready: versions }) + '\n');
const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  process.stdout.write(JSON.stringify(await answer(JSON.parse(line))) + '\n');
}
