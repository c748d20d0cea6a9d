import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { agentLocator, platformNotice } from './actions/common.descriptions';
import { PAGE_LIMITS } from './helpers/records/lists';
import { numericIdFrom, type RawId } from './helpers/input/parameters';
import type { StoredWebhook } from './helpers/trigger/delivery';
import {
	DELIVERY_STATUSES,
	SECRET_PARAMETER,
	deliveryItem,
	deliveryJson,
	newWebhookSecret,
	planWebhooks,
	secretMatches,
	statusAllowed,
	urlWithSecret,
} from './helpers/trigger/delivery';
import { createWebhook, deleteWebhook } from './helpers/trigger/webhooks';
import { testAgentPlatformApi } from './methods/credentialTest';
import { searchAgents } from './methods/listSearch';
import { asNodeError } from './transport/errors';
import { apiRequestAllItems } from './transport/paginate';

function storedWebhook(ctx: IHookFunctions | IWebhookFunctions): StoredWebhook & IDataObject {
	return ctx.getWorkflowStaticData('node') as StoredWebhook & IDataObject;
}

function agentIdOf(ctx: IHookFunctions): string {
	return numericIdFrom(ctx.getNode(), ctx.getNodeParameter('agentId', '') as RawId, 'agent');
}

/** n8n's URL of this node's webhook: the production URL when activating, the test URL when listening. */
function webhookUrlOf(ctx: IHookFunctions): string {
	const url = ctx.getNodeWebhookUrl('default');
	if (!url) throw new NodeOperationError(ctx.getNode(), 'n8n gave no webhook URL for this trigger');
	return url;
}

/** The platform's 400 to an http:// URL, told as what it is and how to fix it. */
function httpsRequiredError(
	ctx: IHookFunctions,
	error: unknown,
	webhookUrl: string,
): NodeOperationError | undefined {
	if (!(error instanceof NodeApiError) || error.httpCode !== '400' || !/^http:/i.test(webhookUrl))
		return undefined;
	return new NodeOperationError(
		ctx.getNode(),
		`The Agent Platform accepts only https webhook URLs, and n8n's webhook URL is http (${webhookUrl}). ` +
			"Set n8n's WEBHOOK_URL environment variable to n8n's public https address (behind an https reverse proxy " +
			'or a tunnel) and restart n8n',
		{
			description:
				'For example WEBHOOK_URL=https://n8n.example.com/ (n8n 1.x and 2.x; n8n 2.x also reads it as N8N_WEBHOOK_URL), ' +
				'where a reverse proxy or tunnel with a valid certificate forwards https://n8n.example.com to n8n. ' +
				'Then make the workflow live again (Publish on n8n 2.x, the Active switch on 1.x). ' +
				`The platform said: ${error.description ?? error.message}`,
		},
	);
}

export class AgentPlatformTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Agent Platform Trigger',
		name: 'agentPlatformTrigger',
		icon: { light: 'file:agentPlatform.svg', dark: 'file:agentPlatform.dark.svg' },
		group: ['trigger'],
		version: 1,
		// $parameter gives a resource locator's value; its toJSON() gives the stored locator, whose
		// cachedResultName is the agent's name as the picker showed it (absent for an ID typed in)
		subtitle:
			'={{ $parameter["agentId"] ? "Finished runs of " + (($parameter.toJSON().agentId.cachedResultName || "").split(" — ")[0] || "agent " + $parameter["agentId"]) : "" }}',
		// n8n's node panel shows the action node and this trigger as one entry described by the
		// trigger's description (editor-ui useActionsGeneration: `app.description = trigger.description`),
		// also where a newcomer looks for an action: it names what both do, the actions first
		description:
			'Run Agent Platform agents and manage their files, memories, webhooks and usage, or start a workflow when an agent run finishes',
		defaults: { name: 'Agent Platform Trigger' },
		// what n8n's editor says while the trigger listens for a test event (2.x: on the canvas and
		// the run button; the node view's listening line is n8n's own, "Go to <name> and create an
		// event", from the display name: getTriggerNodeServiceName in editor-ui's TriggerPanel)
		eventTriggerDescription:
			'Waiting for a finished run of the picked agent: run it (Agent → Execute, or on the platform)',
		// n8n's trigger panel: what sends the event is a finished run of the picked agent
		triggerPanel: {
			header: 'Run the picked agent to send the test event',
			executionsHelp: {
				inactive:
					'Start a test (Execute Step, or Listen for Test Event on n8n 1.x), then run the agent picked in this node (Agent Platform → Agent → Execute, or on the platform): its finished run starts the workflow once. Make the workflow live (Publish on n8n 2.x, the Active switch on 1.x) to start it on every finished run.',
				active:
					'The workflow is live: every finished run of the picked agent starts it. Its executions are in the Executions list.',
			},
			activationHint:
				'Once you have tested it with a run of the agent, make the workflow live (Publish on n8n 2.x, the Active switch on 1.x) to start it on every finished run.',
		},
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'agentPlatformApi', required: true, testedBy: 'testAgentPlatformApi' }],
		webhooks: [
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' },
		],
		properties: [
			{
				// n8n's node panel names a trigger's entries after a property called "Trigger On"
				displayName: 'Trigger On',
				name: 'event',
				type: 'options',
				noDataExpression: true,
				default: 'runFinished',
				description: 'What starts the workflow',
				options: [
					{
						name: 'Finished Run',
						value: 'runFinished',
						action: 'On a finished agent run',
						description: 'A run of the agent finished: completed or failed',
					},
				],
			},
			{ ...agentLocator, description: 'The agent whose finished runs start this workflow' },
			platformNotice(
				'httpsNotice',
				'A test of this trigger (Execute Step, or Listen for Test Event) registers the test URL on the agent and waits for one finished run of it: run the agent picked here (Agent Platform → Agent → Execute, or on the platform) to send the event. Making the workflow live (Publish on n8n 2.x, the Active switch on 1.x) registers the production URL; taking it off removes it. The production platform accepts only https URLs: start n8n with WEBHOOK_URL set to its public https address. An http URL, such as a local test URL, works only with a platform that allows it (the local emulator).',
			),
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				description: 'Which deliveries start the workflow, and what the item carries',
				options: [
					{
						displayName: 'Include Headers',
						name: 'includeHeaders',
						type: 'boolean',
						default: false,
						description: "Whether to add the delivery's HTTP headers to the item, as headers",
					},
					{
						displayName: 'Only Statuses',
						name: 'statuses',
						type: 'multiOptions',
						default: [],
						description:
							'Start the workflow only for deliveries whose status is one of these; with none chosen, every delivery starts it',
						options: DELIVERY_STATUSES.map((status) => ({
							name: status[0].toUpperCase() + status.slice(1),
							value: status,
						})),
					},
				],
			},
		],
	};

	methods = {
		credentialTest: { testAgentPlatformApi },
		listSearch: { searchAgents },
	};

	webhookMethods = {
		default: {
			/**
			 * Finds this node's webhook among the agent's (by n8n's webhook URL), keeps using it,
			 * removes duplicates, and forgets a stored one the platform no longer has.
			 */
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const stored = storedWebhook(this);
				const agentId = agentIdOf(this);
				const webhooks = await apiRequestAllItems(
					this,
					{ method: 'GET', path: `/agents/${agentId}/webhooks`, resource: `agent ${agentId}` },
					{ returnAll: true, maxPerPage: PAGE_LIMITS.webhooks },
				);
				const plan = planWebhooks(webhooks, webhookUrlOf(this), stored);
				for (const id of plan.remove) await deleteWebhook(this, id);
				if (!plan.keep) {
					delete stored.webhookId;
					delete stored.webhookSecret;
					return false;
				}
				if (stored.webhookId !== plan.keep.id) stored.webhookId = plan.keep.id;
				if (stored.webhookSecret !== plan.keep.secret) stored.webhookSecret = plan.keep.secret;
				return true;
			},

			/** Registers n8n's webhook URL with a new secret in its query string. */
			async create(this: IHookFunctions): Promise<boolean> {
				const agentId = agentIdOf(this);
				const webhookUrl = webhookUrlOf(this);
				const secret = newWebhookSecret();
				let created: IDataObject;
				try {
					created = await createWebhook(this, agentId, {
						url: urlWithSecret(webhookUrl, secret),
						method: 'POST',
						status: 'active',
					});
				} catch (error) {
					throw httpsRequiredError(this, error, webhookUrl) ?? asNodeError(this.getNode(), error);
				}
				if (created?.id === undefined || created?.id === null) {
					throw new NodeApiError(this.getNode(), (created ?? {}) as JsonObject, {
						message: 'The platform did not return the ID of the webhook it created',
					});
				}
				const stored = storedWebhook(this);
				stored.webhookId = String(created.id);
				stored.webhookSecret = secret;
				return true;
			},

			/** Removes the webhook (a 404 means it is already gone) and forgets it. */
			async delete(this: IHookFunctions): Promise<boolean> {
				const stored = storedWebhook(this);
				if (stored.webhookId !== undefined) await deleteWebhook(this, String(stored.webhookId));
				delete stored.webhookId;
				delete stored.webhookSecret;
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const stored = storedWebhook(this);
		if (
			!secretMatches((this.getQueryData() as IDataObject)[SECRET_PARAMETER], stored.webhookSecret)
		) {
			this.getResponseObject()
				.status(401)
				.json({ message: "Unauthorized: the request does not carry this trigger's secret" });
			return { noWebhookResponse: true };
		}
		const options = this.getNodeParameter('options', {}) as {
			includeHeaders?: boolean;
			statuses?: string[];
		};
		const request = this.getRequestObject() as { rawBody?: Uint8Array };
		const json = deliveryJson(request.rawBody, this.getBodyData());
		// the filter reads the platform's own status word, before it is made the common one
		if (!statusAllowed(json, options.statuses)) return {};
		const run = deliveryItem(json);
		const item = options.includeHeaders
			? { ...run, headers: this.getHeaderData() as IDataObject }
			: run;
		return { workflowData: [this.helpers.returnJsonArray(item)] };
	}
}
