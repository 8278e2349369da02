package llm

import "strings"

// Alibaba Cloud Model Studio's OpenAI-compatible mode (DashScope,
// https://www.alibabacloud.com/help/en/model-studio/compatibility-of-openai-with-dashscope).
// QwQ and QVQ answer only a streamed request
// (https://www.alibabacloud.com/help/en/model-studio/deep-thinking), so
// those models always stream; behind a gateway whose URL hides DashScope,
// its 400 "This model only support stream mode" turns streaming on.

func init() {
	register(&provider{
		name:           "dashscope",
		hosts:          []string{"dashscope.aliyuncs.com", "dashscope-intl.aliyuncs.com", "dashscope-us.aliyuncs.com"},
		stream:         true,
		streamRefusals: []string{"only support stream mode"},
		streamOnly: func(model string) bool {
			m := strings.ToLower(model)
			return strings.HasPrefix(m, "qwq") || strings.HasPrefix(m, "qvq")
		},
	})
}
