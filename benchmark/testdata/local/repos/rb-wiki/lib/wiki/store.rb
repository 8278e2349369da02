require "fileutils"
require "time"

module Wiki
  class NotFound < StandardError; end

  # Store keeps pages as files under root, and every older version under
  # root/.history/SLUG/TIMESTAMP.md.
  class Store
    def initialize(root)
      @root = root
      FileUtils.mkdir_p(File.join(@root, ".history"))
    end

    def path(slug)
      raise ArgumentError, "bad slug #{slug.inspect}" unless Wiki.valid_slug?(slug)

      File.join(@root, "#{slug}.md")
    end

    def get(slug)
      file = path(slug)
      raise NotFound, slug unless File.exist?(file)

      Page.new(slug: slug, text: File.read(file), updated_at: File.mtime(file))
    end

    def save(slug, text)
      file = path(slug)
      if File.exist?(file)
        dir = File.join(@root, ".history", slug)
        FileUtils.mkdir_p(dir)
        FileUtils.cp(file, File.join(dir, "#{File.mtime(file).utc.strftime('%Y%m%dT%H%M%S%N')}.md"))
      end
      File.write(file, text)
      get(slug)
    end

    def slugs
      Dir.children(@root).grep(/\.md\z/).map { |f| f.delete_suffix(".md") }.sort
    end
  end
end
