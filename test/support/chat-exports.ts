// Data exports in the shape ChatGPT and Claude write them (conversations.json), made here with known
// contents: every conversation's visible turns are counted, and what an import must leave out (system
// prompts, tool traffic, hidden messages, an edited message's abandoned branch, empty turns) is in them.

const T0 = Date.UTC(2025, 2, 1, 9, 0, 0) / 1000;
const said = (c: number, i: number) =>
  i % 2 === 0
    ? `conversation ${c}, turn ${i}: I keep a sourdough starter called Bubbles and bake on Sundays (${c * 31 + i})`
    : `conversation ${c}, answer ${i}: a longer proof in a cool kitchen helps a starter like Bubbles (${c * 17 + i})`;

/** A ChatGPT export of `conversations` conversations with `turns` visible turns each. */
export function chatgptExport(conversations: number, turns: number): { json: unknown; turns: number } {
  const out = [];
  for (let c = 0; c < conversations; c++) {
    const mapping: Record<string, unknown> = {};
    const id = (n: string) => `c${c}-${n}`;
    mapping[id("root")] = { id: id("root"), message: null, parent: null, children: [id("sys")] };
    mapping[id("sys")] = {
      id: id("sys"),
      parent: id("root"),
      children: [id("t0")],
      message: {
        id: id("sys"),
        author: { role: "system", name: null },
        create_time: null,
        content: { content_type: "text", parts: [""] },
        metadata: { is_visually_hidden_from_conversation: true },
      },
    };
    let parent = id("sys");
    for (let i = 0; i < turns; i++) {
      const node = id(`t${i}`);
      const children = i + 1 < turns ? [id(`t${i + 1}`)] : [];
      // An edit of the first question left a branch the user no longer sees.
      if (i === 0) children.push(id("abandoned"));
      mapping[node] = {
        id: node,
        parent,
        children,
        message: {
          id: node,
          author: { role: i % 2 === 0 ? "user" : "assistant", name: null, metadata: {} },
          create_time: T0 + c * 86_400 + i * 30 + 0.125,
          update_time: null,
          content: { content_type: "text", parts: [said(c, i)] },
          status: "finished_successfully",
          end_turn: i % 2 === 1,
          weight: 1,
          metadata: { model_slug: "gpt-4o" },
          recipient: "all",
        },
      };
      parent = node;
      if (i === 1) {
        // A tool call and its result between two turns.
        const tool = id("tool");
        mapping[tool] = {
          id: tool,
          parent: node,
          children: [],
          message: {
            id: tool,
            author: { role: "tool", name: "browser" },
            create_time: T0 + c * 86_400 + i * 30 + 5,
            content: { content_type: "text", parts: ["search results ..."] },
            metadata: {},
          },
        };
      }
    }
    mapping[id("abandoned")] = {
      id: id("abandoned"),
      parent: id("t0"),
      children: [],
      message: {
        id: id("abandoned"),
        author: { role: "assistant", name: null },
        create_time: T0 + c * 86_400 + 10,
        content: { content_type: "text", parts: ["an answer to a question the user then edited"] },
        metadata: {},
      },
    };
    out.push({
      title: `Sourdough ${c}`,
      create_time: T0 + c * 86_400,
      update_time: T0 + c * 86_400 + turns * 30,
      mapping,
      moderation_results: [],
      current_node: id(`t${turns - 1}`),
      conversation_id: `00000000-0000-4000-8000-${String(c).padStart(12, "0")}`,
      id: `00000000-0000-4000-8000-${String(c).padStart(12, "0")}`,
    });
  }
  return { json: out, turns: conversations * turns };
}

/** A Claude export of `conversations` conversations with `turns` visible turns each. */
export function claudeExport(conversations: number, turns: number): { json: unknown; turns: number } {
  const out = [];
  for (let c = 0; c < conversations; c++) {
    const at = (i: number) =>
      `${new Date((T0 + c * 86_400 + i * 30) * 1000).toISOString().slice(0, 19)}.123456Z`;
    const messages = Array.from({ length: turns }, (_, i) => ({
      uuid: `m-${c}-${i}`,
      // Newer exports carry the text in content parts, older ones in text only.
      text: i % 3 === 0 ? said(c, i) : "",
      content: i % 3 === 0 ? [] : [{ type: "text", text: said(c, i) }],
      sender: i % 2 === 0 ? "human" : "assistant",
      created_at: at(i),
      updated_at: at(i),
      attachments: [],
      files: [],
    }));
    // An empty turn (a message whose only content was a file) is left out.
    messages.push({
      ...(messages[0] as (typeof messages)[number]),
      uuid: `m-${c}-empty`,
      text: "",
      content: [],
    });
    out.push({
      uuid: `10000000-0000-4000-8000-${String(c).padStart(12, "0")}`,
      name: `Baking ${c}`,
      created_at: at(0),
      updated_at: at(turns),
      account: { uuid: "a-1" },
      chat_messages: messages,
    });
  }
  return { json: out, turns: conversations * turns };
}
