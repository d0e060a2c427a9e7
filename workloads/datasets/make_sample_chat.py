#!/usr/bin/env python3
"""Writes sample_chat.json: a small ShareGPT-format file of conversations written for
Plumbline (no third-party text). Deterministic: the same script gives the same file."""
import json
import random

QUESTIONS = [
    "How do I reverse a linked list in place?",
    "What is the difference between latency and throughput when benchmarking a server?",
    "Can you explain what a prefix cache does in an LLM inference engine?",
    "Write a short poem about a lighthouse keeper who counts ships at night.",
    "Why does my sourdough bread come out flat even though the starter bubbles?",
    "Summarise the main causes of the French Revolution in a few sentences.",
    "How should I choose between PostgreSQL and SQLite for a desktop application?",
    "What does it mean for a benchmark to suffer from coordinated omission?",
    "Give me three ideas for a rainy Sunday afternoon with two small children.",
    "Translate 'the train leaves at seven in the morning' into French and German.",
    "How do I compute the median of a stream of numbers without storing all of them?",
    "What is a good way to learn touch typing as an adult?",
    "Explain continuous batching to someone who knows how a restaurant kitchen works.",
    "Is it safe to run a database on a network file system?",
    "What are the trade-offs of using Poisson arrivals in a load test?",
    "Write a Python function that checks whether a string is a palindrome.",
]
DETAILS = [
    "I have tried a few things already and none of them worked the way I expected.",
    "Please keep the answer practical; I do not need the full theory.",
    "Here is some context: the machine has two cores and eight gigabytes of memory.",
    "My colleague says the opposite, so I would like to understand who is right.",
    "Assume I am comfortable with C++ but new to Python.",
    "It is for a small team of four people who share one laptop for testing.",
    "The deadline is tomorrow morning, so a short answer is better than a perfect one.",
    "I read two blog posts about it and they disagreed on almost everything.",
]
ANSWER_SENTENCES = [
    "Start by measuring the simplest case so you have a baseline to compare against.",
    "The key idea is to keep the work that depends on the input separate from the setup.",
    "In practice the difference shows up only under load, so test with realistic traffic.",
    "A common mistake is to measure from the moment a request is sent instead of when it was due.",
    "If the numbers look too good, check whether the cache is doing all of the work.",
    "Write the steps down first; the code usually follows directly from them.",
    "Small examples are easier to reason about, so shrink the problem until it fails reliably.",
    "Keep one variable changing at a time, otherwise you cannot tell which change mattered.",
    "For a desktop program, fewer moving parts usually beats a more powerful server.",
    "The answer depends on how often the data changes and who else needs to read it.",
    "You can check the result by hand for a few inputs before trusting it on many.",
    "Most of the time goes into waiting, not computing, so overlap the waiting.",
]
FOLLOW_UPS = [
    "Thanks. Could you show a concrete example?",
    "What would change if the input were ten times larger?",
    "How would I test that this actually works?",
    "Can you make it shorter?",
    "Is there anything I should avoid doing?",
]


def answer(rng, sentences):
    return " ".join(rng.choice(ANSWER_SENTENCES) for _ in range(sentences))


def main():
    rng = random.Random(20261203)
    entries = []
    for i in range(48):
        question = rng.choice(QUESTIONS)
        details = " ".join(rng.choice(DETAILS) for _ in range(rng.choice([0, 0, 1, 2, 4, 8, 16])))
        turns = []
        if i % 7 == 3:
            turns.append({"from": "system", "value": "You are a helpful assistant."})
        turns.append({"from": "human", "value": (question + " " + details).strip()})
        turns.append({"from": "gpt", "value": answer(rng, rng.choice([1, 2, 4, 8, 16, 32]))})
        for _ in range(rng.choice([0, 0, 1, 2, 3])):
            turns.append({"from": "human", "value": rng.choice(FOLLOW_UPS)})
            turns.append({"from": "gpt", "value": answer(rng, rng.choice([1, 2, 4, 8]))})
        entries.append({"id": f"plumbline-sample-{i:03d}", "conversations": turns})
    # Two entries the sampler must skip: a question nobody answered, and a reply with no question.
    entries.append({"id": "plumbline-sample-unanswered", "conversations": [{"from": "human", "value": QUESTIONS[0]}]})
    entries.append({"id": "plumbline-sample-no-question", "conversations": [{"from": "gpt", "value": ANSWER_SENTENCES[0]}]})
    with open("sample_chat.json", "w", encoding="utf-8") as out:
        json.dump(entries, out, indent=1, ensure_ascii=False)
        out.write("\n")


if __name__ == "__main__":
    main()
