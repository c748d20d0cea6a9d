// End-to-end tests install and drive real n8n processes.
jest.setTimeout(600_000);
