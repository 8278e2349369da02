#!/usr/bin/env python3
"""A stand-in for the pipeline's step 3, laid out as the real file is.
Written for rmc's tests; the wording is ours."""

JUDGE_PROMPT = """Test judge prompt (pipeline layout): say whether the tool found a known issue.

Golden:
{golden_comment}

Candidate:
{candidate}

Reply with JSON only:
{{"reasoning": "why", "match": true/false, "confidence": 0.0-1.0}}"""


async def call(client, prompt):
    kwargs = {
        "model": "m",
        "messages": [
            {
                "role": "system",
                "content": "Test judge system message.",
            },
            {"role": "user", "content": prompt},
        ],
        "temperature": 0.0,
    }
    return await client.chat.completions.create(**kwargs)
