export { echoResponder, startFakeOpenAIServer } from "./fake-openai-server";
export type {
  FakeChatRequestBody,
  FakeErrorReply,
  FakeOpenAIServer,
  FakeRecordedRequest,
  FakeReply,
  FakeResponder,
  FakeServerOptions,
  FakeToolCall,
} from "./types";
