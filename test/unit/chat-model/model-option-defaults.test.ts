import { modelOptionsProperty } from '../../../nodes/AgentPlatform/actions/chatModel.descriptions';
import { MODEL_OPTION_DEFAULTS } from '../../../nodes/AgentPlatform/helpers/chatModel/modelSettings';

// The form's defaults are literals (n8n's community lint asks for them); the calls read
// MODEL_OPTION_DEFAULTS. A user who never opens Options must get what the form shows.
describe('the chat model Options defaults', () => {
	const options = (modelOptionsProperty.options ?? []) as Array<{ name: string; default: unknown }>;

	it('offers exactly the options whose defaults the calls use', () => {
		expect(options.map((option) => option.name).sort()).toEqual(
			Object.keys(MODEL_OPTION_DEFAULTS).sort(),
		);
	});

	it.each(Object.entries(MODEL_OPTION_DEFAULTS))(
		'shows %s with the default the calls use',
		(name, value) => {
			expect(options.find((option) => option.name === name)?.default).toBe(value);
		},
	);
});
