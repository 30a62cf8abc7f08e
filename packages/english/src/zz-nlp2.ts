import nlp from "compromise";

for (const t of process.argv.slice(2)) {
  const d = nlp(t);
  console.log(
    t,
    "=>",
    d
      .terms()
      .json()
      .map((x: any) => `${x.text}/${x.terms[0].tags.join(",")}`)
      .join("  "),
  );
}
