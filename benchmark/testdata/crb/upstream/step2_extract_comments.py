#!/usr/bin/env python3
"""A stand-in for the pipeline's step 2, laid out as the real file is:
a triple-quoted EXTRACT_PROMPT and a chat call with a system message.
Written for rmc's tests; the wording is ours."""

EXTRACT_PROMPT = """Test extraction prompt (pipeline layout).

Review comments:
{comment}

List every distinct problem the comments raise, one each.

Reply with JSON only:
{{"issues": ["first", "second"]}}"""


async def call(client, prompt):
    return await client.chat.completions.create(
        model="m",
        messages=[
            {
                "role": "system",
                "content": "Test extraction system message.",
            },
            {"role": "user", "content": prompt},
        ],
        temperature=0.0,
    )
