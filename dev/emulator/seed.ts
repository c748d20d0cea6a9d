/**
 * Deterministic seed data: agents of every type (with the spec's chat questions and
 * type-specific questions for the others, plus one agent that always fails), resources of a few
 * types, the default memory collection and optional memories.
 */
import { formatMicro, seededMicros } from './clock';
import type { EmulatorServices } from './services';
import { DEFAULT_COLLECTION_ID, USER_ID } from './types';
import type { AgentType, Question, StoredAgent } from './types';

export const TEMPERATURE_OPTIONS = ['0', '0.25', '0.5', '0.75', '1'];
const MODEL_POOL = [
	'gpt-4o-mini',
	'gpt-4o',
	'claude-3-5-sonnet',
	'claude-3-haiku',
	'gemini-1.5-pro',
	'gemini-1.5-flash',
	'llama-3.1-70b',
	'mistral-large',
];
const TOOL_POOL = [
	'web-search',
	'calculator',
	'code-interpreter',
	'image-generation',
	'weather',
	'wikipedia',
	'url-reader',
];
/**
 * The ids of the seeded agents the tests and examples pick: the first of each type, and the one
 * whose runs always fail (the seed's order below: chat, image, text, video, then the failing one).
 */
export const CHAT_AGENT = 1;
export const IMAGE_AGENT = 2;
export const TEXT_AGENT = 3;
export const VIDEO_AGENT = 4;
export const FAILING_AGENT = 5;
export const ALWAYS_FAILS_TITLE = 'Always Fails';
export const ALWAYS_FAILS_ERROR = 'The agent failed to produce an answer: upstream model error.';

function rotate<T>(pool: T[], start: number, count: number): T[] {
	const out: T[] = [];
	for (let i = 0; i < count; i++) out.push(pool[(start + i) % pool.length]);
	return out;
}

function chatQuestions(index: number): Question[] {
	const models = rotate(MODEL_POOL, index * 3, 2 + (index % 3));
	const tools = ['no-tools', ...rotate(TOOL_POOL, index * 2, 1 + (index % 4))];
	return [
		{
			type: 'select',
			name: 'temperature',
			description: 'Sampling temperature',
			required: true,
			options: [...TEMPERATURE_OPTIONS],
		},
		{
			type: 'select',
			name: 'model',
			description: 'The model the agent uses',
			required: true,
			options: models,
		},
		{
			type: 'select',
			name: 'tools',
			description: 'Tools the agent may call',
			required: true,
			options: tools,
		},
		{
			type: 'number',
			name: 'root_id',
			description: 'Stored session id used to continue a conversation',
			required: false,
		},
		{
			type: 'array',
			name: 'messages',
			description: 'Chat history: objects with role and content',
			required: true,
		},
	];
}

function typeQuestions(type: AgentType, index: number): Question[] {
	switch (type) {
		case 'chat':
			return chatQuestions(index);
		case 'image':
			return [
				{ type: 'text', name: 'prompt', description: 'What the image should show', required: true },
				{
					type: 'select',
					name: 'size',
					description: 'Image size',
					required: true,
					options: ['512x512', '1024x1024', '1792x1024'],
				},
				{
					type: 'number',
					name: 'count',
					description: 'How many images to create',
					required: false,
				},
				{
					type: 'array',
					name: 'negative_keywords',
					description: 'Things the image must not show',
					required: false,
				},
			];
		case 'text':
			return [
				{ type: 'text', name: 'topic', description: 'The topic to write about', required: true },
				{
					type: 'select',
					name: 'tone',
					description: 'Writing tone',
					required: true,
					options: ['formal', 'casual', 'friendly'],
				},
				{
					type: 'number',
					name: 'max_words',
					description: 'Upper bound on the length',
					required: false,
				},
				{ type: 'array', name: 'keywords', description: 'Keywords to include', required: false },
			];
		case 'video':
			return [
				{ type: 'text', name: 'script', description: 'The script of the video', required: true },
				{
					type: 'select',
					name: 'resolution',
					description: 'Output resolution',
					required: true,
					options: ['720p', '1080p', '4k'],
				},
				{
					type: 'number',
					name: 'duration_seconds',
					description: 'Length of the video in seconds',
					required: false,
				},
				{
					type: 'array',
					name: 'scenes',
					description: 'Scene descriptions, in order',
					required: false,
				},
			];
	}
}

const NAMES: Record<AgentType, string[]> = {
	chat: [
		'Chat Assistant',
		'Support Bot',
		'Sales Copilot',
		'Code Helper',
		'Travel Planner',
		'Tutor',
		'Legal Q&A',
		'HR Helpdesk',
		'Recipe Chef',
		'Fitness Coach',
	],
	image: [
		'Image Creator',
		'Logo Designer',
		'Photo Stylist',
		'Poster Maker',
		'Icon Painter',
		'Sketch Artist',
		'Banner Builder',
		'Avatar Studio',
		'Product Shots',
		'Comic Panels',
	],
	text: [
		'Text Summarizer',
		'Blog Writer',
		'Email Drafter',
		'Tweet Composer',
		'Translator',
		'SEO Writer',
		'Report Builder',
		'Proofreader',
		'Story Teller',
		'Headline Maker',
	],
	video: [
		'Video Maker',
		'Explainer Clips',
		'Ad Spotter',
		'Reel Editor',
		'Trailer Cutter',
		'Tutorial Recorder',
		'Slideshow Maker',
		'Avatar Presenter',
		'Promo Studio',
		'Story Reels',
	],
};

const DESCRIPTIONS: Record<AgentType, string> = {
	chat: 'Conversational agent that answers questions',
	image: 'Creates images from a prompt',
	text: 'Writes and rewrites text',
	video: 'Produces short videos from a script',
};

function slugify(s: string): string {
	return s
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-|-$/g, '');
}

export function seedState(core: EmulatorServices): void {
	const ws = Number(core.opts.workspaceId);
	const workspaceId = Number.isFinite(ws) ? ws : 0;
	const types: AgentType[] = ['chat', 'image', 'text', 'video'];
	const perType: Record<AgentType, number> = { chat: 0, image: 0, text: 0, video: 0 };
	const count = core.opts.seed.agents;

	for (let i = 0; i < count; i++) {
		const id = i + 1;
		// FAILING_AGENT always fails (a text agent); the others cycle through the types.
		const fails = id === FAILING_AGENT;
		const type: AgentType = fails ? 'text' : types[(i < 4 ? i : i - 1) % 4];
		const n = perType[type]++;
		const baseName = NAMES[type][n % NAMES[type].length];
		const title = fails
			? ALWAYS_FAILS_TITLE
			: n >= NAMES[type].length
				? `${baseName} ${Math.floor(n / NAMES[type].length) + 1}`
				: baseName;
		const created = seededMicros(i);
		const agent: StoredAgent = {
			id,
			title,
			description: fails
				? 'A test agent whose runs always end with an error'
				: `${DESCRIPTIONS[type]} (${title})`,
			long_description:
				i % 6 === 5
					? null
					: fails
						? 'Every execution of this agent fails with an error message; used to test failure handling.'
						: `${title} is a ${type} agent. ${DESCRIPTIONS[type]}. Seeded by the emulator as agent number ${id}.`,
			workspace_id: workspaceId,
			visibility: 'public',
			slug: `${slugify(title)}-${id}`,
			active: 1,
			type,
			questions: typeQuestions(type, n),
			created_at: formatMicro(created),
			updated_at: formatMicro(created + 3_600_000_000n),
			created_by: USER_ID,
			fileIds: [],
		};
		if (fails) agent.failMessage = ALWAYS_FAILS_ERROR;
		core.state.agents.set(id, agent);
	}

	const resourceTypes = ['prompt', 'workflow', 'document', 'template'];
	const topics = [
		'Marketing',
		'Support',
		'Engineering',
		'Sales',
		'Finance',
		'Onboarding',
		'Research',
		'Legal',
	];
	for (let i = 0; i < core.opts.seed.resources; i++) {
		const type = resourceTypes[i % resourceTypes.length];
		const topic = topics[i % topics.length];
		const created = seededMicros(i + 100);
		const id = String(i + 1);
		core.state.resources.set(id, {
			id,
			title: `${topic} ${type} ${i + 1}`,
			description: `A ${type} for ${topic.toLowerCase()} teams`,
			created_at: formatMicro(created),
			updated_at: formatMicro(created + 7_200_000_000n),
			type,
			long_description: `Resource ${i + 1}: reusable ${type} covering ${topic.toLowerCase()} tasks${i % 5 === 0 ? ', featured' : ''}.`,
		});
	}

	core.state.collections.set(DEFAULT_COLLECTION_ID, {
		id: DEFAULT_COLLECTION_ID,
		user_id: USER_ID,
		name: 'default',
		display_name: 'Default',
	});

	for (let i = 0; i < core.opts.seed.memories; i++) {
		const id = core.ids.memory++;
		core.state.memories.set(id, {
			id,
			user_id: USER_ID,
			collection_id: DEFAULT_COLLECTION_ID,
			memory: `Seeded memory ${id}: the customer prefers ${['email', 'phone', 'chat'][i % 3]} contact.`,
			credits: 0,
		});
	}
}
