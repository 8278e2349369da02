module Wiki
  # A page: its slug, its Markdown text and when it was last saved.
  Page = Struct.new(:slug, :text, :updated_at, keyword_init: true) do
    def title
      first = text.lines.first.to_s.strip
      first.start_with?("# ") ? first[2..].strip : slug.tr("-", " ").capitalize
    end
  end
end
