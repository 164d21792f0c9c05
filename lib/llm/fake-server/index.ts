export { echoResponder, startFakeOpenAIServer } from "./fake-openai-server";
export { fakeScenarios } from "./scenarios";
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
