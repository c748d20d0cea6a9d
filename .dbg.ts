import { readToolsAnswer } from './nodes/AgentPlatform/helpers/chatModel/toolCallReader';
import { TOOLS } from './test/unit/chat-model/toolCallCorpus';
const r = process.argv[2];
console.log(JSON.stringify(readToolsAnswer(JSON.parse(r), TOOLS)));
