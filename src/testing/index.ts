export {
  type FakeAnswer,
  type FakeChatCall,
  FakeStructuredChatModel,
  type FakeStructuredChatModelOptions,
  type FakeStructuredRequest,
} from "./fake-structured-chat-model.js";
